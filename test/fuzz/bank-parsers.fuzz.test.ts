import fc from 'fast-check';
import { BankClient } from '../../src/bank/client.js';
import { BankInvalidResponseError } from '../../src/bank/errors.js';
import { createLogger } from '../../src/logger.js';
import { startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';
import { fuzzParameters, labelled } from '../helpers/fuzz.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';
import { responseCases, type ResponseCase } from './bank-samples.js';
import { mutationArbitrary, sitesOf, type Mutation } from './response-mutations.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The sandbox only speaks the spec, so mutated answers come from a stub bank that serves, to any request, the
 * bytes the current case sets.
 */
describe('bank response parsers under mutated spec responses', () => {
  let data: DataSandbox;
  let cases: ResponseCase[];
  let stub: StubBank;
  let served = '';
  let bank: BankClient;

  beforeAll(async () => {
    data = await startDataSandbox();
    cases = await responseCases(data);
    stub = await startStubBank((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(served));
    });
    bank = new BankClient(
      { clientId: 'fuzz', clientSecret: 'fuzz', baseUrl: stub.baseUrl, timeoutMs: 5_000 },
      createLogger('silent'),
    );
  });
  afterAll(async () => {
    await stub?.stop();
    await data?.stop();
  });

  async function outcome(testCase: ResponseCase, text: string) {
    served = text;
    return testCase.call(bank).then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
  }

  it('has a valid sandbox response for every BankClient method, and parses each as served', async () => {
    const methods = Object.getOwnPropertyNames(BankClient.prototype).filter((name) => name !== 'constructor');
    expect(cases.map((c) => c.method).sort()).toEqual(methods.sort());
    for (const testCase of cases) {
      const result = await outcome(testCase, JSON.stringify(testCase.body));
      expect({ method: testCase.method, result }).toEqual({
        method: testCase.method,
        result: { ok: true, value: testCase.answer(testCase.body) },
      });
      expect(
        sitesOf(testCase.body, testCase.schema).some((site) => site.declared && !site.declared.optional),
      ).toBe(true);
    }
  });

  it('refuses a mutated response only with BankInvalidResponseError naming the first offending member, and keeps every other one whole', async () => {
    const mutated = fc
      .integer({ min: 0, max: cases.length - 1 })
      .chain((index) => {
        const testCase = cases[index] as ResponseCase;
        return mutationArbitrary(testCase.body, testCase.schema).map((mutation) => ({ testCase, mutation }));
      })
      .map((pair) => labelled(pair, `${pair.testCase.method}: ${pair.mutation.what}`));

    await fc.assert(
      fc.asyncProperty(mutated, async ({ testCase, mutation }) => {
        const text = mutation.text ?? JSON.stringify(mutation.body);
        const result = await outcome(testCase, text);
        if (refused(mutation)) {
          if (result.ok) throw new Error(`accepted: ${JSON.stringify(result.value).slice(0, 300)}`);
          expect(result.error).toBeInstanceOf(BankInvalidResponseError);
          const message = (result.error as Error).message;
          expect(message.startsWith(`${operationOf(testCase)}: `)).toBe(true);
          if (mutation.failsAt) {
            expect(message).toMatch(new RegExp(`expected shape: ${escape(mutation.failsAt.join('.'))}: \\S`));
          } else {
            expect(message).toMatch(mutation.failsWith as RegExp);
          }
        } else {
          if (!result.ok) throw result.error;
          expect(result.value).toEqual(testCase.answer(JSON.parse(text)));
        }
      }),
      fuzzParameters(2_000),
    );
  });

  it('drops a `__proto__` member instead of making it the record prototype', async () => {
    const card = cases.find((c) => c.method === 'getCard') as ResponseCase;
    const text = JSON.stringify(card.body).replace('{"data":{', '{"data":{"__proto__":{"polluted":true},');
    const result = await outcome(card, text);
    expect(result.ok).toBe(true);
    const value = (result as { value: object }).value;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, '__proto__')).toBe(false);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});

const refused = (mutation: Mutation) => mutation.failsAt !== undefined || mutation.failsWith !== undefined;

/** The operation an error names: the list call a paging method makes. */
function operationOf(testCase: ResponseCase): string {
  return testCase.method.replace(/^listAll/, 'list');
}

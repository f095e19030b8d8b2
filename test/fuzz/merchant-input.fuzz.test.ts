import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import fc from 'fast-check';
import { BankClient } from '../../src/bank/client.js';
import { createLogger } from '../../src/logger.js';
import { InvalidInputError } from '../../src/starter/index.js';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { fuzzParameters, fuzzSeed, jsonKind, jsonOtherThan, labelled, text } from '../helpers/fuzz.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';
import { schedulesConfig, starterCases, type StarterCase } from './merchant-cases.js';

type Path = (string | number)[];

/**
 * One wrong input: which member was changed (the one the refusal must name), and what the reason must say.
 */
interface WrongInput {
  what: string;
  input: unknown;
  field: string;
  reason?: RegExp;
}

/** Every member path of a valid input, objects and array elements alike. */
function pathsOf(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [index, item])
    : Object.entries(value);
  return entries.flatMap(([key, member]) => [[...prefix, key], ...pathsOf(member, [...prefix, key])]);
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

function changed(
  value: unknown,
  path: Path,
  change: (parent: Record<string | number, unknown>, key: string | number) => void,
) {
  const copy = structuredClone(value) as Record<string | number, unknown>;
  change(
    valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>,
    path[path.length - 1] as string | number,
  );
  return copy;
}

/**
 * Wrong inputs of one starter function: a wrong value, a wrong type, a required member left out, no object at
 * all.
 */
function wrongInputs(testCase: StarterCase): fc.Arbitrary<WrongInput> {
  const { valid } = testCase;
  const paths = pathsOf(valid);
  const wrongValues = Object.entries(testCase.wrong).map(([field, arbitrary]) =>
    arbitrary.map(({ value, reason }) => ({
      what: `${field} = ${JSON.stringify(value)}`,
      input: changed(valid, field.split('.'), (parent, key) => (parent[key] = value)),
      field,
      reason,
    })),
  );
  const retyped = fc.constantFrom(...paths).chain((path) => {
    const kind = jsonKind(valueAt(valid, path));
    return jsonOtherThan(kind === 'null' ? 'string' : kind).map((value) => ({
      what: `${path.join('.')} retyped to ${JSON.stringify(value)}`,
      input: changed(valid, path, (parent, key) => (parent[key] = value)),
      field: path.join('.'),
    }));
  });
  const required = paths.filter(
    (path) => typeof path[path.length - 1] === 'string' && !testCase.optional.includes(path.join('.')),
  );
  const arbitraries: fc.Arbitrary<WrongInput>[] = [
    ...wrongValues,
    retyped,
    fc.constantFrom<unknown>(null, 'input', 42, [], true).map((input) => ({
      what: `input is ${JSON.stringify(input)}`,
      input,
      field: 'input',
    })),
  ];
  if (required.length) {
    arbitraries.push(
      fc.constantFrom(...required).map((path) => ({
        what: `${path.join('.')} left out`,
        input: changed(valid, path, (parent, key) => delete parent[key]),
        field: path.join('.'),
      })),
    );
  }
  return fc.oneof(...arbitraries);
}

const settleWithin = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still running after ${ms} ms`)), ms),
    ),
  ]);

describe('merchant-side input of every starter function and of the CLI', () => {
  let stack: TestStack;
  let stub: StubBank;
  let bankCalls = 0;
  /** Every use of the Temporal client by a starter: a refused input must come before any. */
  const temporalUses: string[] = [];
  let cases: StarterCase[];
  const schedulePrefix = `fuzz-${randomUUID()}-`;

  beforeAll(async () => {
    stack = await startTestStack();
    stub = await startStubBank((request, response) => {
      bankCalls += 1;
      request.resume();
      response.writeHead(500).end();
    });
    const client = new Proxy(stack.client, {
      get(target, property, receiver) {
        if (property === 'workflow' || property === 'schedule') temporalUses.push(String(property));
        return Reflect.get(target, property, receiver) as unknown;
      },
    }) as Client;
    const starter = { client, taskQueue: stack.taskQueue };
    cases = starterCases({
      starter,
      bank: {
        bank: new BankClient(
          { clientId: 'fuzz', clientSecret: 'fuzz', baseUrl: stub.baseUrl, timeoutMs: 2_000 },
          createLogger('silent'),
        ),
      },
      schedules: { ...starter, schedules: schedulesConfig(schedulePrefix) },
    });
  });
  afterAll(async () => {
    await stub?.stop();
    await stack?.stop();
  });

  it('refuses every wrong input with InvalidInputError naming the field and why, before Temporal or the bank is called', async () => {
    const wrong = fc
      .integer({ min: 0, max: cases.length - 1 })
      .chain((index) => {
        const testCase = cases[index] as StarterCase;
        return wrongInputs(testCase).map((input) => ({ testCase, input }));
      })
      .map((pair) => labelled(pair, `${pair.testCase.name}: ${pair.input.what}`));

    await fc.assert(
      fc.asyncProperty(wrong, async ({ testCase, input }) => {
        temporalUses.length = 0;
        bankCalls = 0;
        let pending: Promise<unknown>;
        try {
          pending = testCase.call(input.input);
        } catch (thrown) {
          throw new Error(
            `${testCase.name} threw instead of returning a rejected promise: ${String(thrown)}`,
          );
        }
        const error = await settleWithin(pending, 5_000).then(
          () => new Error('accepted'),
          (failure: unknown) => failure,
        );
        expect(error).toBeInstanceOf(InvalidInputError);
        const { field, reason, message } = error as InvalidInputError;
        expect(field).toBe(input.field);
        expect(reason.trim().length).toBeGreaterThan(3);
        expect(message).toBe(`${field}: ${reason}`);
        if (input.reason) expect(reason).toMatch(input.reason);
        expect({ temporalUses, bankCalls }).toEqual({ temporalUses: [], bankCalls: 0 });
      }),
      fuzzParameters(3_000),
    );
  });

  it(
    'refuses bad CLI option values with exit code 1 and the option named on stderr',
    async () => {
      const env = cliEnvFor(stack);
      const uuid = randomUUID();
      const payment = {
        '--enrollment': uuid,
        '--device': uuid,
        '--amount': '1050',
        '--description': 'Pedido',
        '--entity': uuid,
        '--virtual-account': uuid,
        '--external-id': `cli-${uuid}`,
      };
      const enrollment = {
        '--device': uuid,
        '--participant': uuid,
        '--return-to': 'https://merchant.example/back',
      };
      const notUuid = text(20).filter((value) => !/^[0-9a-f-]{36}$/i.test(value) && !value.startsWith('-'));
      const commands: fc.Arbitrary<{ args: string[]; option: string }>[] = [
        fc
          .tuple(fc.constantFrom('--enrollment', '--device', '--entity', '--virtual-account'), notUuid)
          .map(([option, value]) => ({
            args: ['payment', 'start', ...Object.entries({ ...payment, [option]: value }).flat()],
            option,
          })),
        fc.constantFrom('1.5', '-1', 'abc', '1e3', '10,50', ' ').map((value) => ({
          args: ['payment', 'start', ...Object.entries({ ...payment, '--amount': value }).flat()],
          option: '--amount',
        })),
        fc.constantFrom('x'.repeat(141), 'pedido #1 / R$ 10,50'.repeat(8)).map((value) => ({
          args: ['payment', 'start', ...Object.entries({ ...payment, '--description': value }).flat()],
          option: '--description',
        })),
        fc.constantFrom('order 1', 'pedido/1', 'ação').map((value) => ({
          args: ['payment', 'get', '--external-id', value],
          option: '--external-id',
        })),
        fc.constantFrom('merchant.example', 'ftp://merchant.example/x').map((value) => ({
          args: ['enrollment', 'start', ...Object.entries({ ...enrollment, '--return-to': value }).flat()],
          option: '--return-to',
        })),
        fc.constantFrom('123', '1234567a').map((value) => ({
          args: [
            'enrollment',
            'start',
            ...Object.entries({
              ...enrollment,
              '--account-ispb': value,
              '--account-issuer': '0001',
              '--account-number': '123',
            }).flat(),
          ],
          option: '--account-ispb',
        })),
        fc.constantFrom('123', 'abcdefghijk').map((value) => ({
          args: ['device', 'find-or-create', '--fingerprint', 'fp', '--tax-number', value],
          option: '--tax-number',
        })),
        notUuid.map((value) => ({ args: ['participants', '--device', value], option: '--device' })),
        fc.constantFrom('yesterday', '2025-06-01 00:00').map((value) => ({
          args: ['sync', 'attempts', '--from', value, '--to', '2025-06-02T00:00:00Z'],
          option: '--from',
        })),
        fc.constantFrom('0', '101', 'ten').map((value) => ({
          args: [
            'sync',
            'attempts',
            '--from',
            '2025-06-01T00:00:00Z',
            '--to',
            '2025-06-02T00:00:00Z',
            '--page-size',
            value,
          ],
          option: '--page-size',
        })),
      ];
      // Each command is a process of its own: one sample of each, two at a time (a CLI start costs about a
      // second).
      const sample = commands.flatMap((command) => fc.sample(command, { seed: fuzzSeed, numRuns: 1 }));
      const results: { command: (typeof sample)[number]; result: Awaited<ReturnType<typeof runCli>> }[] = [];
      for (let start = 0; start < sample.length; start += 2) {
        const batch = sample.slice(start, start + 2);
        results.push(
          ...(await Promise.all(
            batch.map(async (command) => ({ command, result: await runCli(command.args, env) })),
          )),
        );
      }
      for (const { command, result } of results) {
        expect({ args: command.args, code: result.code, stdout: result.stdout }).toEqual({
          args: command.args,
          code: 1,
          stdout: '',
        });
        expect(result.stderr).toMatch(new RegExp(`^error: ${command.option}: \\S`, 'm'));
      }
    },
    cliTestTimeoutMs,
  );

  it('started no workflow and created no schedule for any of it', async () => {
    const workflows = [];
    for await (const workflow of stack.client.workflow.list({ query: `TaskQueue = '${stack.taskQueue}'` })) {
      workflows.push(workflow.workflowId);
    }
    expect(workflows).toEqual([]);
    const schedules = [];
    for await (const schedule of stack.client.schedule.list()) {
      if (schedule.scheduleId.startsWith(schedulePrefix)) schedules.push(schedule.scheduleId);
    }
    expect(schedules).toEqual([]);
  });
});

import { setTimeout as sleep } from 'node:timers/promises';
import {
  BankNotFoundError,
  BankRateLimitedError,
  BankRequestRejectedError,
  BankUnauthorizedError,
  BankUnavailableError,
  BankValidationError,
} from '../../src/bank/errors.js';
import { errorListBodySchema, singleErrorBodySchema } from '../../src/bank/schemas/errors.js';
import type { FaultInjector, FaultRule, FaultSettings } from '../../devkit/sandbox/faults.js';
import { failureOf, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';
import type { HttpAnswer } from '../helpers/http.js';
import { createSandboxEnrollment } from '../helpers/sandbox-enrollments.js';
import { sandboxControl } from '../helpers/sandbox-control.js';

const unknownId = '00000000-0000-4000-8000-000000000000';
const attemptsPath = '/banking/cashin/pix/recurrences/collections/attempts';
const paymentPath = `/banking/cashin/pix/biometrics/enrollments/${unknownId}/payments/${unknownId}`;

/**
 * What a caller reads of an error answer: its status, its family's form, and each entry's code and pointer.
 */
function errorForm(answer: HttpAnswer) {
  const body: unknown = answer.json();
  const single = singleErrorBodySchema.safeParse(body);
  if (single.success)
    return { status: answer.statusCode, form: 'single', codes: [single.data.error.error_code] };
  const list = errorListBodySchema.parse(body);
  return {
    status: answer.statusCode,
    form: 'list',
    codes: list.errors.map((item) => item.title),
    pointers: list.errors.map((item) => item.source?.pointer),
  };
}

describe('fail_next answers each status in the error body its endpoint answers that status with', () => {
  let data: DataSandbox;
  const control = () => sandboxControl(data.sandbox.url);
  const openBoleto = () =>
    [...data.sandbox.state.boletos.values()].find((boleto) => boleto.status !== 'cancelled')!;
  const boletoCancel = () => `/banking/cashin/boletos/${openBoleto().id}/cancel`;
  const attemptPath = () => `${attemptsPath}/${[...data.sandbox.state.bankData.attempts.keys()][0]}`;

  beforeAll(async () => {
    data = await startDataSandbox();
  });
  afterAll(() => data?.stop());
  beforeEach(async () => {
    expect((await control().post('/sandbox/reset', {})).status).toBe(200);
  });

  async function failNext(...rules: Partial<FaultRule>[]): Promise<void> {
    const response = await control().put('/sandbox/faults', { fail_next: rules });
    expect(response.status).toBe(200);
  }

  async function state() {
    const response = await control().get<{
      data: { settings: FaultSettings; injected: FaultInjector['injected'] };
    }>('/sandbox/faults');
    return response.body.data;
  }

  it('answers 401 as a refused credential is answered: the one UNAUTHORIZED body and its challenge, on both families', async () => {
    const realList = await data.raw(attemptPath(), { auth: false });
    const boleto = openBoleto();
    const realSingle = await data.raw(boletoCancel(), { method: 'PUT', auth: false });
    await failNext({ count: 2, status: 401 });
    const injectedList = await data.raw(attemptPath());
    const injectedSingle = await data.raw(boletoCancel(), { method: 'PUT' });

    for (const [injected, real] of [
      [injectedList, realList],
      [injectedSingle, realSingle],
    ] as const) {
      expect(injected.statusCode).toBe(401);
      expect(injected.body).toBe(real.body);
      expect(injected.headers.get('www-authenticate')).toBe(real.headers.get('www-authenticate'));
    }
    expect(realList.json()).toEqual({
      error: { error_code: 'UNAUTHORIZED', error_message: 'Invalid credentials' },
    });
    // The rule is spent and the boleto was never cancelled: a refused call reaches no route.
    expect((await data.raw(attemptPath())).statusCode).toBe(200);
    expect(data.sandbox.state.boletos.get(boleto.id)?.status).not.toBe('cancelled');
  });

  it('answers 404 as the GET of a payment the bank cannot find, and in the single form on its family', async () => {
    const real = await data.raw(paymentPath);
    const realSingle = await data.raw(`/banking/cashin/boletos/${unknownId}/cancel`, { method: 'PUT' });
    await failNext({ count: 2, status: 404 });
    expect(errorForm(await data.raw(paymentPath))).toEqual(errorForm(real));
    expect(errorForm(await data.raw(boletoCancel(), { method: 'PUT' }))).toEqual(errorForm(realSingle));
    expect(errorForm(real)).toEqual({ status: 404, form: 'list', codes: ['NOT_FOUND'], pointers: [''] });
  });

  it('answers 409 as a record whose status refuses the request', async () => {
    const { enrollment } = await createSandboxEnrollment(
      data.bank,
      data.sandbox,
      'https://merchant.example/',
    );
    const optionsPath = `/biometrics/enrollments/${enrollment.id}/credentials`;
    // Not validated by the account holder yet: the bank refuses registration options for real.
    const real = await data.raw(optionsPath);
    expect(errorForm(real)).toEqual({ status: 409, form: 'list', codes: ['INVALID_STATUS'], pointers: [''] });
    await failNext({ count: 2, status: 409 });
    expect(errorForm(await data.raw(optionsPath))).toEqual(errorForm(real));
    expect(errorForm(await data.raw(boletoCancel(), { method: 'PUT' }))).toEqual({
      status: 409,
      form: 'single',
      codes: ['INVALID_STATUS'],
    });
  });

  it('answers 422 as a request the bank cannot process: errors list on its family, single form on the other', async () => {
    const real = await data.raw('/banking/cashin/pix/recurrences', { method: 'POST', body: {} });
    expect(real.statusCode).toBe(422);
    expect(new Set(errorForm(real).codes)).toEqual(new Set(['INVALID_PARAMETER']));
    await failNext({ method: 'POST', count: 1, status: 422 }, { count: 1, status: 422 });
    const injected = await data.raw('/banking/cashin/pix/recurrences', { method: 'POST', body: {} });
    expect(errorForm(injected)).toEqual({
      status: 422,
      form: 'list',
      codes: ['INVALID_PARAMETER'],
      pointers: [''],
    });
    expect(errorForm(await data.raw(boletoCancel(), { method: 'PUT' }))).toEqual({
      status: 422,
      form: 'single',
      codes: ['INVALID_PARAMETER'],
    });
  });

  it('answers 403 FORBIDDEN in the form of each family', async () => {
    await failNext({ count: 2, status: 403 });
    expect(errorForm(await data.raw(attemptPath()))).toEqual({
      status: 403,
      form: 'list',
      codes: ['FORBIDDEN'],
      pointers: [''],
    });
    expect(errorForm(await data.raw(boletoCancel(), { method: 'PUT' }))).toEqual({
      status: 403,
      form: 'single',
      codes: ['FORBIDDEN'],
    });
  });

  it.each([
    [401, BankUnauthorizedError],
    [403, BankRequestRejectedError],
    [404, BankNotFoundError],
    [409, BankRequestRejectedError],
    [422, BankValidationError],
    [429, BankRateLimitedError],
    [500, BankUnavailableError],
    [502, BankUnavailableError],
    [503, BankUnavailableError],
    [504, BankUnavailableError],
  ] as const)('surfaces an injected %i on a read through the client as %p', async (status, type) => {
    await failNext({ method: 'GET', path_prefix: attemptsPath, count: 1, status });
    const id = [...data.sandbox.state.bankData.attempts.keys()][0] ?? '';
    const failure = await failureOf(data.bank.getCollectionAttempt(id));
    expect(failure).toBeInstanceOf(type);
    expect(failure).toMatchObject({ context: { status } });
    expect((await data.bank.getCollectionAttempt(id)).id).toBe(id);
  });

  it('fails every matching call for for_ms from when the rule is set, then none: a credential rotation', async () => {
    const windowMs = 3_000;
    const setAt = Date.now();
    await failNext({ status: 401, for_ms: windowMs });
    const id = [...data.sandbox.state.bankData.attempts.keys()][0] ?? '';
    for (let call = 0; call < 5; call++) {
      await expect(data.bank.getCollectionAttempt(id)).rejects.toBeInstanceOf(BankUnauthorizedError);
    }
    await expect(data.bank.cancelBoleto(unknownId)).rejects.toBeInstanceOf(BankUnauthorizedError);
    expect((await state()).settings.fail_next).toEqual([{ status: 401, for_ms: windowMs }]);

    await sleep(Math.max(0, setAt + windowMs + 100 - Date.now()));
    expect((await data.bank.getCollectionAttempt(id)).id).toBe(id);
    expect((await state()).injected.ruleFailures).toBe(6);
  });

  it('adds rules to the running settings without restarting the seeded streams (POST /sandbox/faults/rules)', async () => {
    const id = [...data.sandbox.state.bankData.attempts.keys()][0] ?? '';
    const outcomes = async (calls: number) => {
      const seen: string[] = [];
      for (let call = 0; call < calls; call++) {
        seen.push(
          await data.bank.getCollectionAttempt(id).then(
            () => 'ok',
            (error: Error & { context?: { status?: number } }) => String(error.context?.status),
          ),
        );
      }
      return seen;
    };
    expect((await control().put('/sandbox/faults', { seed: 3, error_rate: 0.5 })).status).toBe(200);
    const undisturbed = await outcomes(20);

    expect((await control().put('/sandbox/faults', { seed: 3, error_rate: 0.5 })).status).toBe(200);
    const before = await outcomes(10);
    const added = await control().post<{ data: { settings: FaultSettings } }>('/sandbox/faults/rules', {
      fail_next: [{ count: 2, status: 403 }],
    });
    expect(added.status).toBe(200);
    expect(added.body.data.settings).toMatchObject({ seed: 3, error_rate: 0.5 });
    const after = await outcomes(12);
    // The two calls the rule took drew nothing from the stream: the rest go on where the stream was.
    expect([...before, ...after]).toEqual([
      ...undisturbed.slice(0, 10),
      '403',
      '403',
      ...undisturbed.slice(10),
    ]);
  });

  it('refuses a rule without a span, with both, or with a status it does not inject, naming each member', async () => {
    const refused = await control().put<{ errors: { detail: string; source: { pointer: string } }[] }>(
      '/sandbox/faults',
      {
        fail_next: [
          { status: 401 },
          { status: 401, count: 1, for_ms: 1_000 },
          { status: 418, count: 1 },
          { status: 503, for_ms: 0 },
        ],
      },
    );
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((error) => [error.source.pointer, error.detail])).toEqual([
      ['/fail_next/0/count', expect.stringMatching(/^required: .*count.*for_ms/)],
      ['/fail_next/1/for_ms', expect.stringContaining('not both')],
      ['/fail_next/2/status', 'must be one of 401, 403, 404, 409, 422, 429, 500, 502, 503, 504'],
      ['/fail_next/3/for_ms', expect.any(String)],
    ]);
    const added = await control().post<{ errors: { source: { pointer: string } }[] }>(
      '/sandbox/faults/rules',
      {
        fail_next: [{ status: 401 }],
      },
    );
    expect(added.status).toBe(422);
    expect(added.body.errors.map((error) => error.source.pointer)).toEqual(['/fail_next/0/count']);
  });
});

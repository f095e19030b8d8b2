import type { AddressInfo } from 'node:net';
import { BankClient } from '../../src/bank/client.js';
import { BankNotFoundError, BankValidationError } from '../../src/bank/errors.js';
import { errorListBodySchema, singleErrorBodySchema } from '../../src/bank/schemas/errors.js';
import { createLogger } from '../../src/logger.js';
import { createSandbox, type Sandbox } from '../../devkit/sandbox/app.js';
import { failureOf, fixedNow } from '../helpers/data-sandbox.js';
import { httpCall, type HttpAnswer } from '../helpers/http.js';

const credentials = { clientId: 'shape-client', clientSecret: 'shape-secret' };
const basic = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64')}`;
const unknownId = '00000000-0000-4000-8000-000000000000';

/** A route that fails the way a bug would, one per family, to see what a crash answers. */
const crashPaths = { single: '/banking/cashin/boletos/crash-probe', list: '/banking/cards/crash/probe' };

describe('the sandbox answers every mistake in its endpoint family error shape', () => {
  let sandbox: Sandbox;
  let url: string;
  let bank: BankClient;

  beforeAll(async () => {
    sandbox = createSandbox({ seed: 42, now: fixedNow, credentials, logger: createLogger('silent') });
    for (const path of Object.values(crashPaths)) {
      sandbox.app.get(path, () => {
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
      });
    }
    await sandbox.app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(sandbox.app.server.address() as AddressInfo).port}`;
    bank = new BankClient({ ...credentials, baseUrl: url, timeoutMs: 5_000 }, createLogger('silent'));
  });
  afterAll(async () => {
    await sandbox?.app.close();
  });

  const call = (method: string, path: string, init: { body?: string; contentType?: string } = {}) =>
    httpCall(`${url}${path}`, {
      method,
      body: init.body,
      headers: { authorization: basic, ...(init.contentType ? { 'content-type': init.contentType } : {}) },
    });

  /** The body in the single-error form, failing when it is in any other. */
  function single(answer: HttpAnswer) {
    const body: unknown = answer.json();
    expect(body).not.toHaveProperty('statusCode');
    return singleErrorBodySchema.parse(body).error;
  }

  /** The body's items in the errors-list form, failing when it is in any other. */
  function listed(answer: HttpAnswer) {
    const body: unknown = answer.json();
    expect(body).not.toHaveProperty('statusCode');
    return errorListBodySchema.parse(body).errors;
  }

  const seededBoletoId = () => [...sandbox.state.boletos.keys()][0]!;
  const recurrences = '/banking/cashin/pix/recurrences';

  it('refuses a body that is not JSON with 400 MALFORMED_BODY, pointing at the whole body', async () => {
    const onList = await call('POST', recurrences, {
      body: '{"external_id": ',
      contentType: 'application/json',
    });
    expect(onList.statusCode).toBe(400);
    expect(listed(onList)).toEqual([
      { title: 'MALFORMED_BODY', detail: expect.stringContaining('not valid JSON'), source: { pointer: '' } },
    ]);
    const onSingle = await call('PUT', `/banking/cashin/boletos/${seededBoletoId()}/cancel`, {
      body: '{',
      contentType: 'application/json',
    });
    expect(onSingle.statusCode).toBe(400);
    expect(single(onSingle).error_code).toBe('MALFORMED_BODY');
  });

  it('refuses a content type other than JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const onList = await call('POST', recurrences, { body: 'external_id=1', contentType: 'text/plain' });
    expect(onList.statusCode).toBe(415);
    expect(listed(onList)[0]?.title).toBe('UNSUPPORTED_MEDIA_TYPE');
    const onSingle = await call('PUT', `/banking/cashin/boletos/${seededBoletoId()}/cancel`, {
      body: '<cancel/>',
      contentType: 'application/xml',
    });
    expect(onSingle.statusCode).toBe(415);
    expect(single(onSingle).error_code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('reads a JSON content type with an empty body as no body: the bodiless cancel succeeds', async () => {
    const id = seededBoletoId();
    const cancelled = await call('PUT', `/banking/cashin/boletos/${id}/cancel`, {
      body: '',
      contentType: 'application/json',
    });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json().data).toMatchObject({ id, status: 'cancelled' });
    const missing = await call('POST', recurrences, { body: '', contentType: 'application/json' });
    expect(missing.statusCode).toBe(422);
    expect(listed(missing).map((item) => item.source?.pointer)).toContain('/external_id');
  });

  it('answers a crash with 500 INTEGRATION_ERROR, as the spec names it, and hides its cause', async () => {
    const onSingle = await call('GET', crashPaths.single);
    expect(onSingle.statusCode).toBe(500);
    expect(single(onSingle)).toEqual({
      error_code: 'INTEGRATION_ERROR',
      error_message: 'Unexpected integration error',
    });
    const onList = await call('GET', crashPaths.list);
    expect(onList.statusCode).toBe(500);
    expect(listed(onList)[0]).toMatchObject({ title: 'INTEGRATION_ERROR' });
    expect(onList.body).not.toContain('Cannot read properties');
  });

  it('answers 404 for an unknown path in the shape of the family the path falls in', async () => {
    const singles = ['/banking/cashout/transfer/extra', '/banking/cashin/refunds/1', '/banking/metric/x'];
    for (const path of singles) {
      const answer = await call('GET', path);
      expect(answer.statusCode).toBe(404);
      expect(single(answer).error_code).toBe('NOT_FOUND');
    }
    for (const path of ['/banking/cards/1/2', '/biometrics/nothing', '/banking/unknown']) {
      const answer = await call('GET', path);
      expect(answer.statusCode).toBe(404);
      expect(listed(answer)[0]?.title).toBe('NOT_FOUND');
    }
  });

  it('answers a malformed path id with 400 INVALID_PARAMETER on every family, naming the parameter', async () => {
    const boleto = await call('PUT', '/banking/cashin/boletos/boleto-1/cancel');
    expect(boleto.statusCode).toBe(400);
    expect(single(boleto)).toEqual({
      error_code: 'INVALID_PARAMETER',
      error_message: 'id: must be a uuid (8-4-4-4-12 hex digits)',
    });
    const paths: [string, string][] = [
      ['/banking/cards/card-1', '/path/id'],
      ['/banking/cashin/pix/recurrences/collections/attempts/attempt-1', '/path/id'],
      ['/biometrics/enrollments/enrollment-1/credentials', '/path/enrollment_id'],
      [`/banking/cashin/pix/biometrics/enrollments/${unknownId}/payments/payment-1`, '/path/payment_id'],
    ];
    const badEncoding = await call('PUT', '/banking/cashin/boletos/%E0%A4%A/cancel');
    expect(badEncoding.statusCode).toBe(400);
    expect(single(badEncoding).error_code).toBe('INVALID_PARAMETER');
    const tooLong = await call('GET', `/banking/cards/${'a'.repeat(300)}`);
    expect(listed(tooLong)[0]?.source?.pointer).toBe('/path/id');
    for (const [path, pointer] of paths) {
      const answer = await call('GET', path);
      expect(answer.statusCode).toBe(400);
      expect(listed(answer).map((item) => [item.title, item.source?.pointer])).toEqual([
        ['INVALID_PARAMETER', pointer],
      ]);
    }
  });

  it('points query mistakes at /query/<name>: REQUIRED_PARAMETER when missing, INVALID_PARAMETER otherwise', async () => {
    const items = async (path: string) => {
      const answer = await call('GET', path);
      expect(answer.statusCode).toBe(400);
      return listed(answer).map((item) => [item.title, item.source?.pointer]);
    };
    const enrollments = '/banking/cashin/pix/biometrics/enrollments';
    expect(await items(enrollments)).toEqual([['REQUIRED_PARAMETER', '/query/device_id']]);
    expect(await items(`${enrollments}?device_id=phone`)).toEqual([
      ['INVALID_PARAMETER', '/query/device_id'],
    ]);
    expect(await items(`/biometrics/participants?device=${unknownId}`)).toEqual([
      ['INVALID_PARAMETER', '/query/device'],
    ]);
    const unknownDevice = await call('GET', `/biometrics/participants?device_id=${unknownId}`);
    expect(unknownDevice.statusCode).toBe(404);
    expect(listed(unknownDevice)[0]?.source?.pointer).toBe('/query/device_id');
  });

  it("answers a 429 with Retry-After in the family's shape", async () => {
    const faults = await httpCall(`${url}/sandbox/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        retry_after_seconds: 3,
        fail_next: [
          { path_prefix: '/banking/cashin/boletos/', count: 1, status: 429 },
          { path_prefix: '/banking/cards/', count: 1, status: 429 },
        ],
      }),
    });
    expect(faults.statusCode).toBe(200);
    const onSingle = await call('PUT', `/banking/cashin/boletos/${unknownId}/cancel`);
    expect(onSingle.statusCode).toBe(429);
    expect(onSingle.headers.get('retry-after')).toBe('3');
    expect(single(onSingle).error_code).toBe('RATE_LIMITED');
    const onList = await call('GET', `/banking/cards/${unknownId}`);
    expect(onList.statusCode).toBe(429);
    expect(listed(onList)[0]?.title).toBe('RATE_LIMITED');
  });

  it('answers a creation with 200, as every other success', async () => {
    const device = await call('POST', '/biometrics/devices', {
      body: JSON.stringify({ fingerprint: 'fp-shapes', counterparty_tax_number: '12345678909' }),
      contentType: 'application/json',
    });
    expect(device.statusCode).toBe(200);
    expect(device.json().data.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives the client the same typed error for a malformed id whatever the family', async () => {
    const card = await failureOf(bank.getCard('card-1'));
    const boleto = await failureOf(bank.cancelBoleto('boleto-1'));
    for (const error of [card, boleto]) {
      expect(error).toBeInstanceOf(BankValidationError);
      expect((error as BankValidationError).bankCode).toBe('INVALID_PARAMETER');
    }
    expect((card as BankValidationError).errors[0]?.source?.pointer).toBe('/path/id');
    expect(await failureOf(bank.listParticipants({ device_id: unknownId }))).toBeInstanceOf(
      BankNotFoundError,
    );
  });
});

import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import { z } from 'zod';
import { BankClient } from '../../src/bank/client.js';
import {
  BankError,
  BankInvalidResponseError,
  BankNotFoundError,
  BankRateLimitedError,
  BankRequestRejectedError,
  BankUnauthorizedError,
  BankUnavailableError,
  BankValidationError,
} from '../../src/bank/errors.js';
import { BankHttp } from '../../src/bank/http.js';
import type { Boleto } from '../../src/bank/schemas/boleto.js';
import { createLogger } from '../../src/logger.js';
import { freePort } from '../helpers/cli.js';
import { startStubBank, type StubBank } from '../helpers/stub-bank.js';

/**
 * Answers the sandbox cannot give (it only speaks the spec): a stub bank whose answer is picked by the boleto
 * id in the path.
 */
type StubAnswer = (response: ServerResponse) => void;

const credentials = { clientId: 'client-7f3a', clientSecret: 'pa55-w0rd-which-must-never-be-logged' };

const boleto: Boleto = {
  id: randomUUID(),
  virtual_account_id: randomUUID(),
  external_id: 'boleto-00001',
  amount: 12_345,
  barcode: '34191000000000000000000000000000000000000000',
  digitable_line: '34191.00000 00000.000000 00000.000000 0 00000000000000',
  boleto_url: 'https://boletos.example/1',
  description: 'Aluguel',
  invoice_type: 'deposit',
  wallet_type: 'registered',
  status: 'cancelled',
  issue_date: '2025-05-01T00:00:00Z',
  expiration_date: '2025-08-01T00:00:00.000Z',
  notes: [],
  due_detail: { due_date: '2025-06-01' },
};

const json = (status: number, body: unknown, headers: Record<string, string> = {}): StubAnswer => {
  return (response) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
};
const text = (status: number, body: string, headers: Record<string, string> = {}): StubAnswer => {
  return (response) => response.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(body);
};

const answers: Record<string, StubAnswer> = {
  ok: json(200, { data: { ...boleto, surprise: { kept: true } }, meta: 'extra' }),
  html: text(200, '<html><body>Scheduled maintenance</body></html>'),
  empty: text(200, ''),
  'wrong-type': json(200, { data: { ...boleto, status: 7 } }),
  'missing-field': json(200, { data: { ...boleto, barcode: undefined } }),
  'not-an-object': json(200, ['unexpected']),
  'plain-401': text(401, 'Unauthorized'),
  'string-401': json(401, 'Invalid credentials'),
  'coded-401': json(401, { error: { error_code: 'EXPIRED_CLIENT', error_message: 'client expired' } }),
  'empty-500': text(500, ''),
  'coded-500': json(500, { error: { error_code: 'INTEGRATION_ERROR', error_message: 'upstream down' } }),
  'long-502': text(502, `<html>${'Bad gateway. '.repeat(40)}</html>`),
  '408': text(408, ''),
  'list-422': json(422, {
    errors: [
      { title: 'INVALID_PARAMETER', detail: 'must be positive', source: { pointer: '/amount' } },
      { title: 'REQUIRED_PARAMETER', detail: 'is required', source: { pointer: '/description' } },
    ],
  }),
  'empty-list-422': json(422, { errors: [] }),
  'single-400': json(400, { error: { error_code: 'INVALID_PARAMETER', error_message: 'bad id' } }),
  'plain-400': text(400, 'Bad Request'),
  '404': json(404, { error: { error_code: 'NOT_FOUND', error_message: 'boleto not found' } }),
  'list-404': json(404, { errors: [{ title: 'NOT_FOUND', detail: 'no such boleto' }] }),
  '403': json(403, { error: { error_code: 'FORBIDDEN', error_message: 'not your boleto' } }),
  'created-201': json(201, { data: boleto }),
  'gateway-400': json(400, {
    statusCode: 400,
    code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
    error: 'Bad Request',
    message: "Body cannot be empty when content-type is set to 'application/json'",
  }),
  'html-405': (response) =>
    response.writeHead(405, { 'content-type': 'text/html', allow: 'GET' }).end('<h1>Method Not Allowed</h1>'),
  'plain-413': text(413, 'Request Entity Too Large'),
  'gateway-415': json(415, {
    statusCode: 415,
    error: 'Unsupported Media Type',
    message: 'Unsupported Media Type',
  }),
  'redirect-302': (response) => response.writeHead(302, { location: 'https://login.example/' }).end(),
  'gateway-503': json(503, { message: 'no healthy upstream' }),
  'seconds-429': text(429, '', { 'retry-after': '12' }),
  'date-429': (response) =>
    text(429, '', { 'retry-after': new Date(Date.now() + 30_000).toUTCString() })(response),
  'bare-429': text(429, ''),
  'garbage-429': text(429, '', { 'retry-after': 'soon' }),
  stall: () => undefined,
};

interface StubRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('bank HTTP error translation', () => {
  let stub: StubBank;
  let baseUrl: string;
  const requests: StubRequest[] = [];
  let logLines: string[];
  let bank: BankClient;

  beforeAll(async () => {
    stub = await startStubBank((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({
          method: request.method ?? '',
          url: request.url ?? '',
          headers: request.headers,
          body: Buffer.concat(chunks).toString(),
        });
        const scenario = /^\/banking\/cashin\/boletos\/([^/]+)\/cancel$/.exec(request.url ?? '')?.[1];
        const answer = answers[scenario ?? ''] ?? json(200, { data: { echo: request.url } });
        answer(response);
      });
    });
    baseUrl = stub.baseUrl;
  });
  afterAll(async () => {
    await stub.stop();
  });
  beforeEach(() => {
    logLines = [];
    bank = new BankClient({ ...credentials, baseUrl, timeoutMs: 2_000 }, capturingLogger());
  });

  /** A debug-level logger whose every line lands in `logLines`. */
  function capturingLogger() {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    return createLogger('debug', sink);
  }

  async function failure(scenario: string, client = bank): Promise<BankError> {
    const error = await client.cancelBoleto(scenario).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(BankError);
    return error as BankError;
  }

  it('parses a 2xx body and keeps members the spec does not list', async () => {
    const cancelled = await bank.cancelBoleto('ok');
    expect(cancelled).toMatchObject({ id: boleto.id, status: 'cancelled', surprise: { kept: true } });
    const request = requests.at(-1);
    expect(request?.method).toBe('PUT');
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    expect(request?.headers.authorization).toBe(`Basic ${basic}`);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('turns a 2xx body that is not JSON into BankInvalidResponseError, measuring it without quoting it', async () => {
    const html = await failure('html');
    expect(html).toBeInstanceOf(BankInvalidResponseError);
    expect(html.retryable).toBe(false);
    expect(html.message).toBe(
      'cancelBoleto: the bank answered HTTP 200 with a body that is not JSON (47 bytes, not quoted)',
    );
    expect((await failure('empty')).message).toContain('HTTP 200 with an empty body');
  });

  it('names the JSON path of a wrong type or a missing member in a 2xx body', async () => {
    const wrongType = await failure('wrong-type');
    expect(wrongType).toBeInstanceOf(BankInvalidResponseError);
    expect(wrongType.message).toMatch(/data\.status: .*string/);
    expect(wrongType.context).toMatchObject({ operation: 'cancelBoleto', method: 'PUT', status: 200 });
    expect((await failure('missing-field')).message).toMatch(/data\.barcode: /);
    expect((await failure('not-an-object')).message).toMatch(/\(root\): /);
  });

  it('turns every 401 body (plain text, JSON string, single error) into BankUnauthorizedError', async () => {
    for (const scenario of ['plain-401', 'string-401']) {
      const error = await failure(scenario);
      expect(error).toBeInstanceOf(BankUnauthorizedError);
      expect(error).toMatchObject({ bankCode: 'UNAUTHORIZED', retryable: false, context: { status: 401 } });
      expect(error.message).toContain('BANK_CLIENT_ID');
    }
    expect(await failure('coded-401')).toMatchObject({ bankCode: 'EXPIRED_CLIENT' });
  });

  it('turns 5xx and 408, with any body, into a retryable BankUnavailableError', async () => {
    const empty = await failure('empty-500');
    expect(empty).toBeInstanceOf(BankUnavailableError);
    expect(empty).toMatchObject({ retryable: true, bankCode: undefined, context: { status: 500 } });
    expect(empty.message).toContain('an empty body');
    const coded = await failure('coded-500');
    expect(coded).toMatchObject({ bankCode: 'INTEGRATION_ERROR' });
    expect(coded.message).toContain('HTTP 500 INTEGRATION_ERROR): upstream down');
    const long = await failure('long-502');
    expect(long).toBeInstanceOf(BankUnavailableError);
    expect(long.message).toMatch(
      /HTTP 502\): a body in no error shape bankflow knows \(\d+ bytes, not quoted\)$/,
    );
    expect(long.message).not.toContain('Bad gateway');
    expect(await failure('408')).toBeInstanceOf(BankUnavailableError);
  });

  it('keeps every errors-list entry, pointer included, in BankValidationError', async () => {
    const error = await failure('list-422');
    expect(error).toBeInstanceOf(BankValidationError);
    expect((error as BankValidationError).errors).toEqual([
      { title: 'INVALID_PARAMETER', detail: 'must be positive', source: { pointer: '/amount' } },
      { title: 'REQUIRED_PARAMETER', detail: 'is required', source: { pointer: '/description' } },
    ]);
    expect(error.message).toContain('INVALID_PARAMETER at /amount: must be positive');
    expect(error.message).toContain('REQUIRED_PARAMETER at /description: is required');
    expect(error).toMatchObject({ bankCode: 'INVALID_PARAMETER', retryable: false });
    expect((await failure('empty-list-422')).message).toContain('no details given');
  });

  it('turns a 400 without an errors list into a one-entry BankValidationError', async () => {
    const single = (await failure('single-400')) as BankValidationError;
    expect(single).toBeInstanceOf(BankValidationError);
    expect(single.errors).toEqual([{ title: 'INVALID_PARAMETER', detail: 'bad id' }]);
    const plain = (await failure('plain-400')) as BankValidationError;
    expect(plain.errors).toEqual([
      { title: 'INVALID_REQUEST', detail: 'a body in no error shape bankflow knows (11 bytes, not quoted)' },
    ]);
  });

  it('turns 404 into BankNotFoundError and other 4xx into BankRequestRejectedError', async () => {
    const notFound = await failure('404');
    expect(notFound).toBeInstanceOf(BankNotFoundError);
    expect(notFound).toMatchObject({ bankCode: 'NOT_FOUND', retryable: false });
    expect(notFound.message).toContain('boleto not found');
    expect((await failure('list-404')).message).toContain('no such boleto');
    const forbidden = await failure('403');
    expect(forbidden).toBeInstanceOf(BankRequestRejectedError);
    expect(forbidden).toMatchObject({ bankCode: 'FORBIDDEN', retryable: false, context: { status: 403 } });
    expect(forbidden.message).toContain('rejected (HTTP 403): not your boleto');
  });

  it('takes any 2xx as success: a creation answered 201 parses like a 200', async () => {
    expect(await bank.cancelBoleto('created-201')).toMatchObject({ id: boleto.id });
  });

  it('turns what a gateway or framework answers (its JSON, HTML, text or a redirect) into typed errors', async () => {
    const gateway = await failure('gateway-400');
    expect(gateway).toBeInstanceOf(BankValidationError);
    expect(gateway).toMatchObject({ bankCode: 'FST_ERR_CTP_EMPTY_JSON_BODY', retryable: false });
    expect(gateway.message).toContain('Body cannot be empty');
    const cases: [string, new (...args: never[]) => BankError, string][] = [
      ['html-405', BankRequestRejectedError, 'HTTP 405'],
      ['plain-413', BankRequestRejectedError, 'HTTP 413'],
      ['gateway-415', BankRequestRejectedError, 'Unsupported Media Type'],
      ['redirect-302', BankRequestRejectedError, 'HTTP 302'],
      ['gateway-503', BankUnavailableError, 'no healthy upstream'],
    ];
    for (const [scenario, type, text] of cases) {
      const error = await failure(scenario);
      expect(error).toBeInstanceOf(type);
      expect(error.message).toContain(text);
    }
  });

  it('reads Retry-After on a 429 as seconds or as an HTTP date', async () => {
    const seconds = await failure('seconds-429');
    expect(seconds).toBeInstanceOf(BankRateLimitedError);
    expect(seconds).toMatchObject({ retryAfterMs: 12_000, retryable: true, bankCode: 'RATE_LIMITED' });
    expect(seconds.message).toContain('retry after 12000 ms');
    const sent = Date.now();
    const date = (await failure('date-429')) as BankRateLimitedError;
    const elapsed = Date.now() - sent;
    // An HTTP date has whole seconds, so up to a second of the 30 is lost to rounding, and the
    // time the answer spent in flight on a loaded machine counts against the date too.
    expect(date.retryAfterMs).toBeGreaterThan(29_000 - elapsed - 1_000);
    expect(date.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(await failure('bare-429')).toMatchObject({ retryAfterMs: undefined });
    expect(await failure('garbage-429')).toMatchObject({ retryAfterMs: undefined });
  });

  it('turns a refused connection into BankUnavailableError', async () => {
    const unreachable = new BankClient(
      { ...credentials, baseUrl: `http://127.0.0.1:${await freePort()}`, timeoutMs: 2_000 },
      createLogger('silent'),
    );
    const error = await failure('ok', unreachable);
    expect(error).toBeInstanceOf(BankUnavailableError);
    expect(error).toMatchObject({ bankCode: 'ECONNREFUSED', retryable: true });
  });

  it('gives up on a bank that does not answer within the timeout', async () => {
    const impatient = new BankClient({ ...credentials, baseUrl, timeoutMs: 200 }, createLogger('silent'));
    const started = performance.now();
    const error = await failure('stall', impatient);
    expect(error).toBeInstanceOf(BankUnavailableError);
    expect(error.bankCode).toBe('ETIMEDOUT');
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('sends defined query parameters and a JSON body through BankHttp', async () => {
    const http = new BankHttp({ ...credentials, baseUrl, timeoutMs: 2_000 }, createLogger('silent'));
    const answer = await http.request({
      operation: 'echo',
      method: 'POST',
      path: '/echo',
      query: { text: 'a b', count: 3, flag: false, absent: undefined },
      body: { amount: 100 },
      schema: z.looseObject({ data: z.looseObject({ echo: z.string() }) }),
    });
    expect(answer.data.echo).toBe('/echo?text=a+b&count=3&flag=false');
    expect(requests.at(-1)).toMatchObject({ method: 'POST', body: '{"amount":100}' });
    expect(requests.at(-1)?.headers['content-type']).toBe('application/json');
  });

  it('logs each call with its request id and never the credentials', async () => {
    await bank.cancelBoleto('ok');
    for (const scenario of ['plain-401', 'empty-500', 'list-422', 'seconds-429']) await failure(scenario);
    const impatient = new BankClient({ ...credentials, baseUrl, timeoutMs: 100 }, capturingLogger());
    expect(await failure('stall', impatient)).toBeInstanceOf(BankUnavailableError);

    const log = logLines.join('');
    const records = logLines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.filter((record) => record.msg === 'bank call failed')).toHaveLength(5);
    const sentIds = requests.slice(-6).map((request) => request.headers['x-request-id']);
    for (const id of sentIds) expect(log).toContain(String(id));
    expect(records.every((record) => record.operation === 'cancelBoleto')).toBe(true);
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    expect(log).not.toContain(credentials.clientSecret);
    expect(log).not.toContain(basic);
    expect(log.toLowerCase()).not.toContain('basic ');
  });
});

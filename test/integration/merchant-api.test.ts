import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import createClient from 'openapi-fetch';
import pino from 'pino';
import { createApiServer } from '../../src/api/app.js';
import { hashApiKey, mintApiKey } from '../../src/api/keys.js';
import type { GenerateRecurrenceRequest } from '../../src/bank/schemas/recurrence.js';
import { createCodecServer } from '../../src/codec-server/app.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import { startSandbox } from '../../devkit/sandbox/app.js';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { httpCall, type HttpAnswer } from '../helpers/http.js';
import { bankFor, control, eventually, world } from '../helpers/journey.js';
import type { paths } from '../helpers/merchant-api-paths.js';
import { recurrenceRequest } from '../helpers/recurrences.js';
import {
  encryptionKeys,
  receiverSecret,
  sandboxCredentials,
  startTestStack,
  type TestStack,
} from '../helpers/stack.js';

const key = mintApiKey('checkout-backend');
const otherKey = mintApiKey('reports-service');

interface Call {
  body?: unknown;
  /** The Idempotency-Key; a new one unless given, none with `null`. */
  idempotencyKey?: string | null;
  apiKey?: string | null;
  headers?: Record<string, string>;
}

describe('the merchant HTTP API over the real stack', () => {
  let stack: TestStack;
  let app: FastifyInstance;
  let apiUrl: string;
  const logLines: Record<string, unknown>[] = [];

  const call = async (method: 'GET' | 'POST', path: string, options: Call = {}): Promise<HttpAnswer> => {
    const apiKey = options.apiKey === undefined ? key.key : options.apiKey;
    const idempotencyKey = options.idempotencyKey === undefined ? randomUUID() : options.idempotencyKey;
    return httpCall(`${apiUrl}${path}`, {
      method,
      headers: {
        ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
        ...(method === 'POST' && idempotencyKey !== null ? { 'idempotency-key': idempotencyKey } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  };

  const expectProblem = (answer: HttpAnswer, status: number, fields: string[]) => {
    expect(answer.statusCode).toBe(status);
    expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = answer.json();
    expect(problem).toMatchObject({
      type: expect.stringMatching(/^\/problems\/[a-z-]+$/),
      title: expect.any(String),
      status,
      detail: expect.any(String),
      instance: expect.stringMatching(/^\/v1\//),
      requestId: answer.headers.get('request-id'),
    });
    expect(problem.errors.map((error: { field: string }) => error.field)).toEqual(fields);
    for (const error of problem.errors) expect(error.reason).toEqual(expect.any(String));
    return problem;
  };

  /** A device at the bank and an open participant, through the API. */
  const newDevice = async () => {
    const device = await call('POST', '/v1/devices', {
      body: {
        fingerprint: `fp-${randomUUID()}`,
        counterparty_tax_number: '12345678909',
        counterparty_name: 'Maria Silva',
      },
    });
    expect(device.statusCode).toBe(200);
    const deviceId = device.json().id as string;
    const participants = await call('GET', `/v1/participants?deviceId=${deviceId}`);
    expect(participants.statusCode).toBe(200);
    const open = (
      participants.json().data as { id: string; is_enrollment_available: boolean; unavailable?: boolean }[]
    ).find((participant) => participant.is_enrollment_available && !participant.unavailable);
    return { deviceId, participantId: open?.id ?? '' };
  };

  /**
   * The enrollment journey through the API, with the customer's device played by the software authenticator.
   */
  const enrollOverHttp = async (authenticator: SoftwareAuthenticator) => {
    const { deviceId, participantId } = await newDevice();
    const started = await call('POST', '/v1/enrollments', {
      body: { deviceId, participantId, returnToUrl: 'https://merchant.example/enrolled' },
    });
    expect(started.statusCode).toBe(200);
    expect(started.json()).toMatchObject({
      redirectUrl: expect.stringContaining('/sandbox/bank-authorization/'),
      status: expect.any(String),
    });
    const enrollmentId = started.json().enrollmentId as string;
    // The customer authorizes on the bank's hosted page.
    await control(stack, 'POST', `/sandbox/biometrics/enrollments/${enrollmentId}/bank-authorization`, {});
    const path = `/v1/enrollments/${deviceId}/${participantId}`;
    const options = await call('POST', `${path}/registration-options`);
    expect(options.statusCode).toBe(200);
    const assertion = authenticator.createCredential(options.json().options as string, stack.sandbox.url);
    const registered = await call('POST', `${path}/credential`, { body: { assertion } });
    expect(registered.statusCode).toBe(200);
    const state = await eventually(
      async () => (await call('GET', path)).json() as { phase: string; enrollmentId?: string },
      (read) => read.phase === 'authorized',
    );
    return { deviceId, participantId, enrollmentId: state.enrollmentId ?? enrollmentId };
  };

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    const lines = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    });
    app = await createApiServer({
      starter: stack,
      bank: { bank: bankFor(stack) },
      keys: [key.entry, otherKey.entry],
      rateLimitPerMinute: 1_000,
      logger: pino({ level: 'info' }, lines),
    });
    apiUrl = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app?.close();
    await stack?.stop();
  });

  it('runs a whole payment journey over HTTP: device, enrollment, payment, authorization and the result, which every key of the deployment reads', async () => {
    const authenticator = SoftwareAuthenticator.create();
    const { deviceId, enrollmentId } = await enrollOverHttp(authenticator);
    const idempotencyKey = randomUUID();
    const created = await call('POST', '/v1/payments', {
      idempotencyKey,
      body: { enrollmentId, deviceId, amountCents: 1_990, description: 'Order 42', ...world(stack) },
    });
    expect(created.statusCode).toBe(200);
    const externalId = created.json().externalId as string;
    // No externalId in the body: one derived from the Idempotency-Key, the same on every API process.
    expect(externalId).toMatch(/^api-[\w-]{32}$/);

    const pending = await call('GET', `/v1/payments/${externalId}/result?wait=0`);
    expect(pending.statusCode).toBe(202);
    expect(pending.json()).toMatchObject({ final: false, state: { phase: expect.any(String) } });

    const options = await call('POST', `/v1/payments/${externalId}/authorization-options`);
    expect(options.statusCode).toBe(200);
    const assertion = authenticator.getAssertion(options.json().options as string, stack.sandbox.url);
    const authorized = await call('POST', `/v1/payments/${externalId}/authorization`, {
      body: { assertion },
    });
    expect(authorized.statusCode).toBe(200);

    const result = await call('GET', `/v1/payments/${externalId}/result?wait=30`);
    expect(result.statusCode).toBe(200);
    expect(result.json()).toMatchObject({ final: true, result: { outcome: 'settled' } });
    const state = await call('GET', `/v1/payments/${externalId}`);
    expect(state.json()).toMatchObject({ phase: 'settled' });
    // One deployment is one merchant: another key of it reads the same payment.
    const readByOther = await call('GET', `/v1/payments/${externalId}`, { apiKey: otherKey.key });
    expect(readByOther.statusCode).toBe(200);
    expect(readByOther.json()).toEqual(state.json());
  });

  it('serves a payment under the longest externalId its schema allows, 200 characters: start, read, options and result', async () => {
    const { deviceId, enrollmentId } = await enrollOverHttp(SoftwareAuthenticator.create());
    const externalId = `order-${randomUUID()}-`.padEnd(200, 'x');
    const created = await call('POST', '/v1/payments', {
      body: { externalId, enrollmentId, deviceId, amountCents: 500, description: 'Order', ...world(stack) },
    });
    expect(created.statusCode).toBe(200);
    expect(created.json().externalId).toBe(externalId);
    const read = await call('GET', `/v1/payments/${externalId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ phase: expect.any(String) });
    expect((await call('POST', `/v1/payments/${externalId}/authorization-options`)).statusCode).toBe(200);
    const result = await call('GET', `/v1/payments/${externalId}/result?wait=0`);
    expect(result.statusCode).toBe(202);
    expect(result.json()).toMatchObject({ final: false, state: { phase: expect.any(String) } });
    // One character more than any route takes is refused before any route runs, as a problem.
    expectProblem(await call('GET', `/v1/payments/${externalId}x`), 414, ['path']);
  });

  it('answers a repeated POST with the first answer on any process and under any key of the merchant, refuses other terms by field, and asks for the key', async () => {
    const { deviceId, participantId } = await newDevice();
    const body = { deviceId, participantId, returnToUrl: 'https://merchant.example/enrolled' };
    const idempotencyKey = randomUUID();
    const startedAt = new Date().toISOString();
    const first = await call('POST', '/v1/enrollments', { idempotencyKey, body });
    expect(first.statusCode).toBe(200);
    const again = await call('POST', '/v1/enrollments', { idempotencyKey, body: { ...body } });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    // Another API process of the fleet, nothing shared but Temporal, knows the key too.
    const otherProcess = await createApiServer({
      starter: stack,
      bank: { bank: bankFor(stack) },
      keys: [key.entry],
      rateLimitPerMinute: 1_000,
      logger: stack.logger,
    });
    try {
      const otherUrl = await otherProcess.listen({ host: '127.0.0.1', port: 0 });
      const onOther = (sent: object) =>
        httpCall(`${otherUrl}/v1/enrollments`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key.key}`,
            'idempotency-key': idempotencyKey,
            'content-type': 'application/json',
          },
          body: JSON.stringify(sent),
        });
      expect((await onOther(body)).json()).toEqual(first.json());
      // The key derives the same enrollment, which refuses other terms, naming them.
      const otherTerms = expectProblem(
        await onOther({ ...body, returnToUrl: 'https://merchant.example/elsewhere' }),
        409,
        ['returnToUrl'],
      );
      expect(otherTerms.type).toBe('/problems/start-terms-conflict');
    } finally {
      await otherProcess.close();
    }

    // A key is the merchant's, not the API key's: the request repeated under a rotated key is the same
    // request.
    const underOtherKey = await call('POST', '/v1/enrollments', {
      idempotencyKey,
      apiKey: otherKey.key,
      body,
    });
    expect(underOtherKey.statusCode).toBe(200);
    expect(underOtherKey.json()).toEqual(first.json());
    expectProblem(
      await call('POST', '/v1/enrollments', {
        idempotencyKey,
        body: { ...body, returnToUrl: 'https://merchant.example/other', externalId: 'mine' },
      }),
      409,
      ['externalId', 'returnToUrl'],
    );

    const missing = expectProblem(
      await call('POST', '/v1/enrollments', { idempotencyKey: null, body }),
      400,
      ['Idempotency-Key'],
    );
    expect(missing.detail).toMatch(/Idempotency-Key/);
    // Every request reached the enrollment's own workflow: no other workflow was started for the key.
    const started = await eventually(
      () => stack.client.workflow.count(`TaskQueue = '${stack.taskQueue}' AND StartTime >= '${startedAt}'`),
      (counted) => counted.count >= 1,
    );
    expect(started.count).toBe(1);
  });

  it('answers a repeated POST /v1/devices with the first answer without asking the bank again, and the key with another body 409', async () => {
    const body = {
      fingerprint: `fp-${randomUUID()}`,
      counterparty_tax_number: '12345678909',
      counterparty_name: 'Maria Silva',
    };
    const idempotencyKey = randomUUID();
    const first = await call('POST', '/v1/devices', { idempotencyKey, body });
    expect(first.statusCode).toBe(200);
    // From now on the bank refuses every device request: only an answer kept from the first can be 200.
    await control(stack, 'PUT', '/sandbox/faults', {
      fail_next: [{ method: 'POST', path_prefix: '/biometrics/devices', count: 10, status: 500 }],
    });
    try {
      const repeats = await Promise.all(
        [1, 2, 3].map(() => call('POST', '/v1/devices', { idempotencyKey, body })),
      );
      expect(repeats.map((repeat) => repeat.statusCode)).toEqual([200, 200, 200]);
      for (const repeat of repeats) expect(repeat.json()).toEqual(first.json());
      const reused = expectProblem(
        await call('POST', '/v1/devices', { idempotencyKey, body: { ...body, counterparty_name: 'Outra' } }),
        409,
        ['Idempotency-Key'],
      );
      expect(reused.type).toBe('/problems/idempotency-key-reused');
      // A new key is a new request, which reaches the bank.
      expect((await call('POST', '/v1/devices', { body })).statusCode).toBeGreaterThanOrEqual(500);
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', { fail_next: [] });
    }
  });

  it('answers failures as problem details naming each field', async () => {
    const invalid = await call('POST', '/v1/payments', { body: { amountCents: -1, description: 'x' } });
    const problem = expectProblem(invalid, 400, [
      'enrollmentId',
      'deviceId',
      'amountCents',
      'entityId',
      'virtualAccountId',
    ]);
    expect(problem.errors[2]).toEqual({ field: 'amountCents', reason: 'must be more than zero' });
    const unknown = await call('GET', `/v1/payments/never-started-${randomUUID()}`);
    expectProblem(unknown, 404, []);
    const badId = await call('GET', '/v1/payments/not%20an%20id');
    expectProblem(badId, 400, ['externalId']);
    const { deviceId, participantId } = await newDevice();
    const started = await call('POST', '/v1/enrollments', {
      body: { deviceId, participantId, returnToUrl: 'https://merchant.example/enrolled' },
    });
    const refused = await call('POST', '/v1/payments', {
      body: {
        enrollmentId: started.json().enrollmentId,
        deviceId,
        amountCents: 100,
        description: 'refused',
        ...world(stack),
      },
    });
    expect(expectProblem(refused, 422, []).detail).toMatch(/not authorized/);
  });

  it('opens only with an API key as a bearer token, and the key opens nothing else', async () => {
    const codecToken = 'codec-token-of-this-test-0123456789abcdef';
    const sandboxToken = 'sandbox-control-token-0123456789abcdef';
    expectProblem(await call('GET', '/v1/participants', { apiKey: null }), 401, ['Authorization']);
    for (const other of [receiverSecret, codecToken, sandboxToken, key.entry.sha256, `${key.key}x`])
      expectProblem(await call('GET', '/v1/participants', { apiKey: other }), 401, ['Authorization']);
    const inQuery = await httpCall(`${apiUrl}/v1/participants?api_key=${key.key}`);
    expect(inQuery.statusCode).toBe(401);

    // The receiver, the codec server and the sandbox's control API each refuse the API key.
    const webhook = await httpCall(`${stack.receiverUrl}/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(webhook.statusCode).toBe(401);
    const codec = createCodecServer({
      codec: new EncryptionCodec(encryptionKeys, 'pass'),
      auth: { users: [], tokens: [codecToken] },
      corsOrigins: [],
      logger: stack.logger,
    });
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 1,
      credentials: sandboxCredentials,
      logger: stack.logger,
      access: { controlToken: sandboxToken },
    });
    try {
      const codecUrl = await codec.listen({ host: '127.0.0.1', port: 0 });
      const decode = (token: string) =>
        httpCall(`${codecUrl}/decode`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ payloads: [] }),
        });
      expect((await decode(key.key)).statusCode).toBe(401);
      expect((await decode(codecToken)).statusCode).toBe(200);
      const controlApi = (token: string) =>
        httpCall(`${sandbox.url}/sandbox/biometrics/payments`, {
          headers: { authorization: `Bearer ${token}` },
        });
      expect((await controlApi(key.key)).statusCode).toBe(401);
      expect((await controlApi(sandboxToken)).statusCode).toBe(200);
    } finally {
      await codec.close();
      await sandbox.stop();
    }
  });

  it("puts its own request id on every answer and log line, and keeps a caller's plain X-Request-Id beside it", async () => {
    const generated = await call('GET', '/v1/participants');
    expect(generated.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    // The request id is bankflow's own whatever the caller sent: another caller sending the same X-Request-Id
    // gets another, so neither's log lines read as the other's.
    const given = await call('GET', '/v1/participants', { headers: { 'x-request-id': 'merchant-req-42' } });
    const requestId = given.headers.get('request-id');
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const same = await call('GET', '/v1/participants', { headers: { 'x-request-id': 'merchant-req-42' } });
    expect(same.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(same.headers.get('request-id')).not.toBe(requestId);
    // The caller's own id, when plain, is echoed apart and kept on the request's log lines.
    expect(given.headers.get('client-request-id')).toBe('merchant-req-42');
    const unplain = await call('GET', '/v1/participants', { headers: { 'x-request-id': 'not plain/id' } });
    expect(unplain.headers.get('client-request-id')).toBeNull();
    const refused = await call('GET', '/v1/participants', {
      apiKey: null,
      headers: { 'x-request-id': 'req-43' },
    });
    expect(refused.headers.get('request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.json().requestId).toBe(refused.headers.get('request-id'));
    // The line is written once the answer is sent, so it may follow the answer by a moment.
    const line = await eventually(
      async () => logLines.find((entry) => entry.requestId === requestId),
      (found) => found !== undefined,
    );
    expect(line).toMatchObject({
      msg: 'API request answered',
      status: 200,
      apiKey: 'checkout-backend',
      clientRequestId: 'merchant-req-42',
    });
    expect(
      logLines.filter((entry) => entry.requestId === 'merchant-req-42' || entry.requestId === 'req-43'),
    ).toEqual([]);
    // No log line holds a key or its hash.
    const logged = JSON.stringify(logLines);
    expect(logged).not.toContain(key.key);
    expect(logged).not.toContain(hashApiKey(key.key));
  });

  it('limits the requests of each key, answering 429 with Retry-After, another key unaffected', async () => {
    const limited = await createApiServer({
      starter: stack,
      bank: { bank: bankFor(stack) },
      keys: [key.entry, otherKey.entry],
      rateLimitPerMinute: 2,
      logger: stack.logger,
    });
    const url = await limited.listen({ host: '127.0.0.1', port: 0 });
    try {
      const get = (apiKey: string) =>
        httpCall(`${url}/v1/participants`, { headers: { authorization: `Bearer ${apiKey}` } });
      expect((await get(key.key)).statusCode).toBe(200);
      expect((await get(key.key)).statusCode).toBe(200);
      const third = await get(key.key);
      expect(third.statusCode).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(third.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(third.json()).toMatchObject({
        status: 429,
        retryable: true,
        type: '/problems/rate-limited',
      });
      expect((await get(otherKey.key)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('starts, reads and cancels a recurrence, and cancels a boleto, each under its Idempotency-Key', async () => {
    // No external_id: the API derives it from the Idempotency-Key.
    const request: Partial<GenerateRecurrenceRequest> = recurrenceRequest(stack);
    delete request.external_id;
    const idempotencyKey = randomUUID();
    const started = await call('POST', '/v1/recurrences', { idempotencyKey, body: request });
    expect(started.statusCode).toBe(200);
    const externalId = started.json().externalId as string;
    expect(externalId).toMatch(/^api-[\w-]{32}$/);
    expect(started.json().recurrence).toMatchObject({ external_id: externalId });
    expect((await call('POST', '/v1/recurrences', { idempotencyKey, body: request })).json()).toEqual(
      started.json(),
    );
    const read = await call('GET', `/v1/recurrences/${externalId}`);
    expect(read.statusCode).toBe(200);
    const cancel = { body: { reason: 'the customer closed the contract' } };
    const cancelled = await call('POST', `/v1/recurrences/${externalId}/cancellation`, cancel);
    expect(cancelled.json()).toMatchObject({ outcome: 'stopped' });
    const again = await call('POST', `/v1/recurrences/${externalId}/cancellation`, cancel);
    expect(expectProblem(again, 422, []).detail).toMatch(/has ended/);
    expectProblem(
      await call('POST', `/v1/recurrences/${externalId}/cancellation`, { body: { reason: ' ' } }),
      400,
      ['reason'],
    );

    const [boletoId] = [...stack.sandbox.state.boletos.keys()];
    const boleto = await call('POST', `/v1/boletos/${boletoId}/cancellation`);
    expect(boleto.statusCode).toBe(200);
    expect(boleto.json()).toMatchObject({ id: boletoId, status: 'cancelled' });
  });

  it("answers an unknown boleto's cancel 404 not-found with the bank's reason", async () => {
    const unknown = await call('POST', `/v1/boletos/${randomUUID()}/cancellation`);
    const problem = expectProblem(unknown, 404, []);
    expect(problem.type).toBe('/problems/not-found');
    expect(problem.detail).toMatch(/not found/);
    expect(problem.detail).not.toMatch(/Activity task failed/);
  });

  it("answers the bank's reads as the bank pages them, one page per request", async () => {
    const bank = bankFor(stack);
    const { entityIds, bankAccountIds } = stack.sandbox.state.world;
    const window = { from_datetime: '2000-01-01T00:00:00Z', to_datetime: '2100-01-01T00:00:00Z' };
    const query = (values: Record<string, string>) => new URLSearchParams(values).toString();

    const refunds = await call('GET', '/v1/refunds');
    expect(refunds.json()).toEqual(await bank.listReceivableRefunds({}));
    const after = refunds.json().metadata.after as string;
    expect(refunds.json().metadata.has_next).toBe(true);
    expect((await call('GET', `/v1/refunds?after=${after}`)).json()).toEqual(
      await bank.listReceivableRefunds({ after }),
    );
    expect((await call('GET', `/v1/transfers?${query(window)}`)).json()).toEqual(
      await bank.listTransfers(window),
    );
    expectProblem(await call('GET', '/v1/transfers'), 400, ['from_datetime', 'to_datetime']);
    const attempts = await call('GET', '/v1/collection-attempts?limit=3');
    expect(attempts.json()).toEqual(await bank.listCollectionAttempts({ limit: 3 }));
    const attemptId = attempts.json().data[0].id as string;
    expect((await call('GET', `/v1/collection-attempts/${attemptId}`)).json()).toEqual(
      await bank.getCollectionAttempt(attemptId),
    );
    const [cardId] = [...stack.sandbox.state.bankData.cards.keys()];
    expect((await call('GET', `/v1/cards/${cardId}`)).json()).toEqual(await bank.getCard(cardId ?? ''));
    expectProblem(await call('GET', `/v1/cards/${randomUUID()}`), 404, []);
    const [endToEndId] = [...stack.sandbox.state.bankData.purchasesByEndToEndId.keys()];
    expect((await call('GET', `/v1/card-purchases/${endToEndId}`)).json()).toEqual(
      await bank.getCardPurchaseByEndToEndId(endToEndId ?? '', {}),
    );
    const invoice = { entity_id: entityIds[0] ?? '' };
    expect((await call('GET', `/v1/card-invoices/current?${query(invoice)}`)).json()).toEqual(
      await bank.getCurrentCardInvoice(invoice),
    );
    const metrics = { bank_account_id: bankAccountIds[0] ?? '', ...window };
    expect((await call('GET', `/v1/metrics?${query(metrics)}`)).json()).toEqual(
      await bank.getMetrics(metrics),
    );
  });

  it('drives the API through a client generated from its OpenAPI document', async () => {
    const client = createClient<paths>({ baseUrl: apiUrl, headers: { authorization: `Bearer ${key.key}` } });
    const device = await client.POST('/v1/devices', {
      params: { header: { 'Idempotency-Key': randomUUID() } },
      body: { fingerprint: `fp-${randomUUID()}`, counterparty_tax_number: '12345678909' },
    });
    expect(device.response.status).toBe(200);
    const participants = await client.GET('/v1/participants', {
      params: { query: { deviceId: device.data?.id } },
    });
    expect(participants.data?.data.length).toBeGreaterThan(0);
    const missing = await client.GET('/v1/payments/{externalId}', {
      params: { path: { externalId: `never-${randomUUID()}` } },
    });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ status: 404, type: '/problems/not-found' });
    const withoutKey = await client.POST('/v1/payments/{externalId}/authorization-options', {
      params: { path: { externalId: 'x' }, header: { 'Idempotency-Key': '' } },
      body: {},
    });
    expect(withoutKey.response.status).toBe(400);
    expect(withoutKey.error?.errors).toEqual([
      { field: 'Idempotency-Key', reason: 'must be 1 to 255 visible ASCII characters' },
    ]);
  });

  it('serves its OpenAPI document without a key', async () => {
    const document = await httpCall(`${apiUrl}/openapi.json`);
    expect(document.statusCode).toBe(200);
    expect(document.json()).toMatchObject({
      openapi: '3.1.0',
      paths: { '/v1/payments': { post: expect.any(Object) } },
    });
  });
});

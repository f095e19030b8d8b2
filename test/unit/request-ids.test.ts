import { Writable } from 'node:stream';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createApiServer, type ApiServerOptions } from '../../src/api/app.js';
import { mintApiKey } from '../../src/api/keys.js';
import { clientRequestIdHeader, keepClientRequestId, requestIdOf } from '../../src/api/request-ids.js';
import { createLogger } from '../../src/logger.js';
import { httpCall } from '../helpers/http.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A logger whose every line lands, parsed, in `lines`. */
function capturingLogger(lines: Record<string, unknown>[]) {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return createLogger('info', sink);
}

/** Values a caller may not have echoed or logged as its request id: too long, spaced, two headers joined. */
const refusedIds = ['x'.repeat(65), 'merchant req 42', 'merchant-req-42,other-req', 'req/../42', 'req%0A42'];

describe("the merchant API's request ids", () => {
  const lines: Record<string, unknown>[] = [];
  let api: FastifyInstance;
  let apiUrl: string;
  const key = mintApiKey('checkout-backend');

  beforeAll(async () => {
    // The routes this test calls (an open probe, and a refusal before any route) reach neither Temporal nor
    // the bank.
    api = await createApiServer({
      starter: {} as ApiServerOptions['starter'],
      bank: {} as ApiServerOptions['bank'],
      keys: [key.entry],
      rateLimitPerMinute: 100,
      logger: capturingLogger(lines),
    });
    apiUrl = await api.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => api.close());

  it("answers bankflow's own Request-Id, never the caller's X-Request-Id: two callers sending one id get two", async () => {
    const headers = { 'x-request-id': 'merchant-req-42' };
    const first = await httpCall(`${apiUrl}/v1/payments/order-1`, { headers });
    const second = await httpCall(`${apiUrl}/healthz`, { headers });
    expect(first.statusCode).toBe(401);
    for (const answer of [first, second]) {
      expect(answer.headers.get('request-id')).toMatch(uuid);
      expect(answer.headers.get('request-id')).not.toBe('merchant-req-42');
    }
    expect(first.headers.get('request-id')).not.toBe(second.headers.get('request-id'));
    expect(first.json()).toMatchObject({ requestId: first.headers.get('request-id') });
    expect(lines.map((line) => line.requestId)).not.toContain('merchant-req-42');
    expect(requestIdOf()).toMatch(uuid);
  });
});

describe("the caller's own id, kept apart", () => {
  const lines: Record<string, unknown>[] = [];
  let app: FastifyInstance;
  let url: string;
  const get = (headers: Record<string, string> = {}) => httpCall(`${url}/healthz`, { headers });

  beforeAll(async () => {
    // Wired as the merchant API wires it.
    app = Fastify({
      loggerInstance: capturingLogger(lines) as FastifyBaseLogger,
      logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: 'requestId' }),
      genReqId: requestIdOf,
    });
    app.addHook('onRequest', async (request, reply) => {
      reply.header('request-id', request.id);
      keepClientRequestId(request, reply);
    });
    app.addHook('onResponse', async (request, reply) => {
      request.log.info({ status: reply.statusCode }, 'API request answered');
    });
    app.get('/healthz', async () => ({ status: 'ok' }));
    url = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => app.close());

  it('echoes a plain X-Request-Id in Client-Request-Id and logs it as clientRequestId, beside requestId', async () => {
    const answer = await get({ 'x-request-id': 'merchant-req.42_A' });
    expect(answer.headers.get(clientRequestIdHeader)).toBe('merchant-req.42_A');
    const requestId = answer.headers.get('request-id');
    expect(requestId).toMatch(uuid);
    expect(lines.find((line) => line.requestId === requestId)).toMatchObject({
      msg: 'API request answered',
      clientRequestId: 'merchant-req.42_A',
    });
  });

  it.each(refusedIds)('neither echoes nor logs an X-Request-Id of another form: %s', async (given) => {
    const answer = await get({ 'x-request-id': given });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers.get(clientRequestIdHeader)).toBeNull();
    expect(answer.headers.get('request-id')).toMatch(uuid);
    const line = lines.find((entry) => entry.requestId === answer.headers.get('request-id'));
    expect(line).toBeDefined();
    expect(line).not.toHaveProperty('clientRequestId');
    expect(JSON.stringify(lines)).not.toContain(given);
  });

  it('answers without Client-Request-Id when the caller sent none', async () => {
    const answer = await get();
    expect(answer.headers.get(clientRequestIdHeader)).toBeNull();
    expect(answer.headers.get('request-id')).toMatch(uuid);
  });
});

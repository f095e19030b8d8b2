import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { WorkflowFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, RetryState, WorkflowNotFoundError } from '@temporalio/common';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { createApiServer, maxParamLength, nestsDeeperThan } from '../../src/api/app.js';
import type { ServerTimeouts } from '../../src/http/server-timeouts.js';
import { mintApiKey } from '../../src/api/keys.js';
import { longestPathParameter, openApiDocument } from '../../src/api/openapi.js';
import { invalidRequest, problemFor } from '../../src/api/problems.js';
import { maxBodyBytes, maxBodyDepth, route } from '../../src/api/route.js';
import { apiRoutes } from '../../src/api/routes/index.js';
import { externalId } from '../../src/starter/payments.js';
import type { StarterContext } from '../../src/starter/context.js';
import type { BankReadContext } from '../../src/starter/devices.js';

const key = mintApiKey('checkout-backend');
const authorization = `Bearer ${key.key}`;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** The raw answer a socket got: status line, headers and body, as a client reading the socket sees it. */
interface SocketAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The merchant API, listening for the describe block that calls this, with `starter` and `bank` behind it
 * (nothing by default: what is refused before a route runs never reaches them), and the server's timeouts.
 */
function served(
  starter = {} as StarterContext,
  bank = {} as BankReadContext,
  timeouts?: Partial<ServerTimeouts>,
) {
  const server = { url: '', app: undefined as FastifyInstance | undefined };
  beforeAll(async () => {
    server.app = await createApiServer({
      starter,
      bank,
      keys: [key.entry],
      rateLimitPerMinute: 1_000,
      logger: pino({ level: 'silent' }),
      ...(timeouts ? { timeouts } : {}),
    });
    server.url = await server.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await server.app?.close();
  });
  return server;
}

/** Checks `answer` is a problem document as every failure is, and answers it. */
function expectProblem(answer: Answer | SocketAnswer, status: number) {
  expect(answer.status).toBe(status);
  const header = (name: string) =>
    answer.headers instanceof Headers ? answer.headers.get(name) : answer.headers[name];
  expect(header('content-type')).toMatch(/^application\/problem\+json/);
  const problem = JSON.parse(answer.body);
  expect(problem).toMatchObject({
    type: expect.stringMatching(/^\/problems\/[a-z-]+$/),
    title: expect.any(String),
    status,
    detail: expect.any(String),
    instance: expect.any(String),
    requestId: header('request-id'),
    errors: expect.any(Array),
  });
  expect(problem.requestId).toEqual(expect.any(String));
  return problem;
}

/** One request with the API key (and an Idempotency-Key on a POST), answered with its status and body. */
async function send(
  url: string,
  method: 'GET' | 'POST',
  path: string,
  init: { body?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: { authorization, ...(method === 'POST' ? { 'idempotency-key': 'key-1' } : {}), ...init.headers },
    body: init.body,
  });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

/** Sends `text` on a new connection and reads what comes back until the server closes it. */
function overSocket(url: string, text: string): Promise<SocketAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [
          line.slice(0, line.indexOf(':')).toLowerCase(),
          line.slice(line.indexOf(':') + 1).trim(),
        ]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe("the merchant API's refusals before any route runs", () => {
  const server = served();
  const call = (
    method: 'GET' | 'POST',
    path: string,
    init: { body?: string; headers?: Record<string, string> } = {},
  ) => send(server.url, method, path, init);
  const postJson = (path: string, body: string) =>
    call('POST', path, { body, headers: { 'content-type': 'application/json' } });

  it('answers a path parameter longer than any route takes as a 414 problem, with a request id', async () => {
    const problem = expectProblem(await call('GET', `/v1/payments/${'a'.repeat(1_000)}`), 414);
    expect(problem.type).toBe('/problems/invalid-request');
    expect(problem.instance).toMatch(/^\/v1\/payments\/a+$/);
    expect(problem.errors).toEqual([{ field: 'path', reason: expect.stringContaining('characters') }]);
  });

  it('answers a malformed percent-encoding as a 400 problem naming the path', async () => {
    const problem = expectProblem(await call('GET', '/v1/payments/%E0%A4%A'), 400);
    expect(problem.errors).toEqual([{ field: 'path', reason: expect.stringContaining('percent-encoding') }]);
  });

  it('answers a body over the limit as a 413 problem naming the limit', async () => {
    const body = JSON.stringify({ description: 'x'.repeat(maxBodyBytes) });
    const problem = expectProblem(await postJson('/v1/payments', body), 413);
    expect(problem.errors).toEqual([{ field: 'body', reason: `is larger than ${maxBodyBytes} bytes` }]);
  });

  it('answers a body of another media type than JSON, text/plain too, as a 415 problem', async () => {
    for (const type of ['text/plain', 'application/xml']) {
      const answer = await call('POST', '/v1/payments', { body: 'hello', headers: { 'content-type': type } });
      const problem = expectProblem(answer, 415);
      expect(problem.errors).toEqual([{ field: 'Content-Type', reason: 'must be application/json' }]);
    }
  });

  it('answers malformed or empty JSON as a 400 problem naming the body', async () => {
    for (const body of ['{"amountCents":', '']) {
      const problem = expectProblem(await postJson('/v1/payments', body), 400);
      expect(problem.errors).toEqual([{ field: 'body', reason: expect.any(String) }]);
    }
    const poisoned = expectProblem(await postJson('/v1/payments', '{"__proto__":{"x":1}}'), 400);
    expect(poisoned.errors).toEqual([{ field: 'body', reason: expect.stringContaining('__proto__') }]);
  });
});

describe("the merchant API's answer to a request not received in time", () => {
  // Short timeouts, for the test to wait them out.
  const server = served(undefined, undefined, { requestMs: 800, headersMs: 400 });

  it('answers a request whose body stops arriving as a 408 problem with its id and path', async () => {
    const answer = await overSocket(
      server.url,
      'POST /v1/payments HTTP/1.1\r\nhost: api\r\n' +
        `authorization: ${authorization}\r\nidempotency-key: key-1\r\n` +
        'content-type: application/json\r\ncontent-length: 40\r\n\r\n{"amountCents":',
    );
    const problem = expectProblem(answer, 408);
    expect(problem).toMatchObject({
      type: '/problems/request-timeout',
      instance: '/v1/payments',
      retryable: true,
      sameId: true,
    });
  });

  it('answers a request whose headers stop arriving as a 408 problem under a new id', async () => {
    const answer = await overSocket(server.url, 'GET /v1/payments/order-1 HTTP/1.1\r\nhost: api\r\n');
    const problem = expectProblem(answer, 408);
    expect(problem.type).toBe('/problems/request-timeout');
    expect(problem.instance).toBe(`urn:uuid:${problem.requestId}`);
  });
});

describe("the merchant API's refusals of a request's members", () => {
  const server = served();
  const postJson = (path: string, body: string) =>
    send(server.url, 'POST', path, { body, headers: { 'content-type': 'application/json' } });

  it('names each unknown member of a strict body or query by its own path, not the object holding it', async () => {
    const body = await postJson('/v1/payments/order-1/authorization-options', '{"zz":1,"nested":{"a":1}}');
    expect(expectProblem(body, 400).errors).toEqual([
      { field: 'zz', reason: 'is not a member this request takes' },
      { field: 'nested', reason: 'is not a member this request takes' },
    ]);
    const query = await send(server.url, 'GET', '/v1/card-invoices/current?entity_id=x&page=2');
    expect(expectProblem(query, 400).errors).toEqual([
      { field: 'entity_id', reason: expect.any(String) },
      { field: 'page', reason: 'is not a member this request takes' },
    ]);
  });

  it('names an unknown member of a nested strict object by its whole path', () => {
    const schema = z.object({ counterparty: z.strictObject({ name: z.string() }) });
    const parsed = schema.safeParse({ counterparty: { name: 'Maria', nick: 'M', age: 1 } });
    expect(parsed.success).toBe(false);
    expect(invalidRequest(parsed.error as z.ZodError, 'body').errors).toEqual([
      { field: 'counterparty.nick', reason: 'is not a member this request takes' },
      { field: 'counterparty.age', reason: 'is not a member this request takes' },
    ]);
  });
});

/** JSON arrays nested `depth` levels deep: `[[[]]]` for 3. */
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe("the merchant API's bound on a body's nesting", () => {
  // The bank client sends what the route passes it as JSON, as Temporal's payloads are: a recursive walk.
  const bank = {
    bank: {
      findOrCreateDevice: async (request: object) => ({ id: randomUUID(), sent: JSON.stringify(request) }),
    },
  } as unknown as BankReadContext;
  const server = served(undefined, bank);
  const postJson = (path: string, body: string) =>
    send(server.url, 'POST', path, { body, headers: { 'content-type': 'application/json' } });
  const device = (extra: string) =>
    `{"fingerprint":"fp-1","counterparty_tax_number":"12345678909","extra":${extra}}`;
  const tooDeep = { field: 'body', reason: `nests objects and arrays deeper than ${maxBodyDepth} levels` };

  it('refuses 60,000 levels of nesting in an unknown member of an open body as a 400 naming body and the limit', async () => {
    const problem = expectProblem(await postJson('/v1/devices', device(nested(60_000))), 400);
    expect(problem.errors).toEqual([tooDeep]);
    expect(problem.detail).toContain(`${maxBodyDepth} levels`);
    // The same member nested within the limit reaches the bank.
    expect((await postJson('/v1/devices', device(nested(maxBodyDepth - 1)))).status).toBe(200);
  });

  it('counts levels up to the limit exactly, and not brackets inside strings', async () => {
    const path = '/v1/payments/order-1/authorization-options';
    const atLimit = expectProblem(await postJson(path, `{"zz":${nested(maxBodyDepth - 1)}}`), 400);
    expect(atLimit.errors).toEqual([{ field: 'zz', reason: 'is not a member this request takes' }]);
    const overLimit = expectProblem(await postJson(path, `{"zz":${nested(maxBodyDepth)}}`), 400);
    expect(overLimit.errors).toEqual([tooDeep]);
    const inString = JSON.stringify({ zz: `${nested(maxBodyDepth * 2)} "\\ [[[` });
    expect(nestsDeeperThan(inString, maxBodyDepth)).toBe(false);
    expect(nestsDeeperThan(`[${inString}]`.repeat(1), 1)).toBe(true);
  });

  it('leaves room over the deepest body a route declares', () => {
    interface Schema {
      type?: string;
      properties?: Record<string, Schema>;
      items?: Schema;
      anyOf?: Schema[];
    }
    const depth = (schema: Schema | undefined): number =>
      schema === undefined
        ? 0
        : (schema.type === 'object' || schema.type === 'array' ? 1 : 0) +
          Math.max(
            0,
            ...[...Object.values(schema.properties ?? {}), schema.items, ...(schema.anyOf ?? [])].map(depth),
          );
    const operations = Object.values(openApiDocument(apiRoutes).paths).flatMap((methods) =>
      Object.values(methods),
    ) as { requestBody?: { content: { 'application/json': { schema: Schema } } } }[];
    const depths = operations.map((operation) =>
      depth(operation.requestBody?.content['application/json'].schema),
    );
    // Room for the members of the bank's open objects: at least four times the deepest body declared.
    expect(Math.max(...depths) * 4).toBeLessThanOrEqual(maxBodyDepth);
  });
});

describe("the merchant API's path parameters", () => {
  /** The workflow ids routes asked Temporal for; nothing was ever started under any. */
  const asked: string[] = [];
  const notStarted = (workflowId: string) => {
    asked.push(workflowId);
    return Promise.reject(new WorkflowNotFoundError('workflow not found', workflowId, undefined));
  };
  const starter = {
    taskQueue: 'unit',
    client: {
      withDeadline: <T>(_deadline: number, call: () => Promise<T>) => call(),
      workflow: {
        getHandle: (workflowId: string) => ({
          workflowId,
          describe: () => notStarted(workflowId),
          result: () => notStarted(workflowId),
        }),
      },
    },
  } as unknown as StarterContext;
  const server = served(starter);
  const get = async (path: string) => {
    const answer = await send(server.url, 'GET', path);
    return expectProblem(answer, answer.status);
  };

  it("takes the router's longest parameter from the schemas: a payment's externalId, 200 characters", () => {
    expect(externalId.maxLength).toBe(200);
    expect(maxParamLength).toBe(longestPathParameter(apiRoutes));
    expect(maxParamLength).toBe(externalId.maxLength);
    const unbounded = route({
      method: 'GET',
      path: '/v1/things/{thingId}',
      operationId: 'getThing',
      tag: 'Things',
      summary: 'A thing',
      params: z.object({ thingId: z.string() }),
      call: async () => ({ body: {} }),
    });
    expect(() => longestPathParameter([unbounded])).toThrow(/thingId needs a maximum length/);
  });

  it('serves a 200-character externalId on every payment route that reads it, and refuses one longer', async () => {
    const longest = 'order-'.padEnd(maxParamLength, 'x');
    for (const path of [`/v1/payments/${longest}`, `/v1/payments/${longest}/result?wait=0`]) {
      const problem = await get(path);
      // The route ran, and asked for the payment under the whole id: nothing was started under it.
      expect(problem).toMatchObject({ status: 404, type: '/problems/not-found' });
      expect(asked.pop()).toBe(`payment:${longest}`);
    }
    const tooLong = await get(`/v1/payments/${longest}x`);
    expect(tooLong).toMatchObject({ status: 414, type: '/problems/invalid-request' });
    expect(tooLong.errors).toEqual([{ field: 'path', reason: expect.stringContaining(`${maxParamLength}`) }]);
  });

  it("refuses a parameter over its own route's bound, under the router's, naming it", async () => {
    const problem = await get(`/v1/recurrences/${'r'.repeat(101)}`);
    expect(problem).toMatchObject({ status: 400, type: '/problems/invalid-request' });
    expect(problem.errors).toEqual([{ field: 'externalId', reason: expect.stringContaining('100') }]);
  });
});

/** A workflow that failed as a bank call's activity failed: `type` is the failure the activity raised. */
const failedOnBankCall = (type: string, message: string) =>
  new WorkflowFailedError(
    'Workflow execution failed',
    new ActivityFailure(
      'Activity task failed',
      'cancelBoleto',
      '1',
      RetryState.NON_RETRYABLE_FAILURE,
      'worker',
      ApplicationFailure.create({ type, message, nonRetryable: true }),
    ),
    RetryState.NON_RETRYABLE_FAILURE,
  );

describe("the merchant API's answer to a failed workflow", () => {
  const unknownBoleto = 'cancelBoleto: not found (HTTP 404): boleto 4f0c not found';
  const starter = {
    taskQueue: 'unit',
    client: {
      withDeadline: <T>(_deadline: number, call: () => Promise<T>) => call(),
      workflow: {
        start: async () => ({
          result: () => Promise.reject(failedOnBankCall('BankNotFound', unknownBoleto)),
        }),
      },
    },
  } as unknown as StarterContext;
  const server = served(starter);

  it("answers an unknown boleto's cancel 404 not-found with the bank's reason, not 422 Activity task failed", async () => {
    const answer = await send(server.url, 'POST', `/v1/boletos/${randomUUID()}/cancellation`, {
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    expect(expectProblem(answer, 404)).toMatchObject({ type: '/problems/not-found', detail: unknownBoleto });
  });

  it("answers the bank's other failures as the bank's error is answered, and the workflow's own by type", () => {
    expect(
      problemFor(failedOnBankCall('BankUnauthorized', 'the bank refused the credentials')),
    ).toMatchObject({
      status: 422,
      kind: 'bank-refused',
      message: 'the bank refused the credentials',
      extra: { refusal: 'BankUnauthorized', retryable: false },
    });
    expect(problemFor(failedOnBankCall('BankUnavailable', 'the bank is down'))).toMatchObject({
      status: 503,
      kind: 'bank-unavailable',
      extra: { retryable: true, sameId: true },
    });
    const notConfirmed = new WorkflowFailedError(
      'Workflow execution failed',
      ApplicationFailure.create({ type: 'BoletoCancellationNotConfirmed', message: 'still confirmed' }),
      RetryState.NON_RETRYABLE_FAILURE,
    );
    expect(problemFor(notConfirmed)).toMatchObject({
      status: 422,
      kind: 'failed',
      message: 'still confirmed',
      extra: { refusal: 'BoletoCancellationNotConfirmed' },
    });
  });
});

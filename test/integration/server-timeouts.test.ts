import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { createCheckout } from '../../devkit/checkout/app.js';
import { createCodecServer } from '../../src/codec-server/app.js';
import { defaultServerTimeouts, type ServerTimeouts } from '../../src/http/server-timeouts.js';
import { startSandbox } from '../../devkit/sandbox/app.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import { createWorkerMetrics, serveMetrics } from '../../src/temporal/worker-metrics.js';
import { createReceiver } from '../../src/webhooks/app.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import { freePort } from '../helpers/cli.js';
import { bankFor, world } from '../helpers/journey.js';
import { requestHead, slowClient } from '../helpers/raw-http.js';
import { encryptionKeys, sandboxCredentials, startTestStack, type TestStack } from '../helpers/stack.js';

/** Short enough to wait for: a slow client is cut off within these, not after minutes. */
const short: ServerTimeouts = { requestMs: 1_500, headersMs: 700, keepAliveMs: 1_000 };
/** Node checks the timeouts on an interval (a quarter of the shortest here) and the machine may be loaded. */
const slack = 1_000;

interface Served {
  name: string;
  url: string;
  /** A route whose request has a body, with whatever headers get it past authentication to the body. */
  post: { path: string; headers: [string, string][] };
  /** A route answering a bodiless GET. */
  get: string;
  server: Server;
}

describe('every bankflow HTTP server cuts off a slow client (request, headers and keep-alive timeouts)', () => {
  let stack: TestStack;
  const served: Served[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  const listen = async (
    name: string,
    app: FastifyInstance,
    routes: Pick<Served, 'post' | 'get'>,
    port = 0,
  ) => {
    const url = await app.listen({ host: '127.0.0.1', port });
    closers.push(() => app.close());
    served.push({ name, url, server: app.server, ...routes });
  };

  beforeAll(async () => {
    stack = await startTestStack();
    const json: [string, string] = ['content-type', 'application/json'];
    await listen(
      'webhook receiver',
      createReceiver({
        client: stack.client,
        taskQueue: stack.taskQueue,
        auth: { secrets: ['s3cret'], disabled: false, acceptSecretHeader: false },
        maxAgeMs: undefined,
        router: bankflowRouter,
        logger: stack.logger,
        timeouts: short,
      }),
      { post: { path: '/webhooks', headers: [json] }, get: '/healthz' },
    );
    await listen(
      'codec server',
      createCodecServer({
        codec: new EncryptionCodec(encryptionKeys, 'pass'),
        auth: { users: [], tokens: ['t0ken'] },
        corsOrigins: [],
        logger: stack.logger,
        timeouts: short,
      }),
      { post: { path: '/decode', headers: [json, ['authorization', 'Bearer t0ken']] }, get: '/healthz' },
    );
    const checkoutPort = await freePort();
    await listen(
      'checkout',
      createCheckout({
        starter: stack,
        bank: { bank: bankFor(stack) },
        merchant: world(stack),
        widgetUrl: 'http://localhost:4999/sandbox/widget',
        publicUrl: `http://127.0.0.1:${checkoutPort}`,
        logger: stack.logger,
        timeouts: short,
      }),
      { post: { path: '/api/device', headers: [json] }, get: '/checkout.css' },
      checkoutPort,
    );
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 42,
      credentials: sandboxCredentials,
      logger: stack.logger,
      timeouts: short,
    });
    closers.push(() => sandbox.stop());
    const basic = Buffer.from(`${sandboxCredentials.clientId}:${sandboxCredentials.clientSecret}`).toString(
      'base64',
    );
    served.push({
      name: 'sandbox',
      url: sandbox.url,
      server: sandbox.app.server,
      post: { path: '/biometrics/devices', headers: [json, ['authorization', `Basic ${basic}`]] },
      get: '/healthz',
    });
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await stack?.stop();
  });

  /** The same slow client against every server: what each answered, and whether it closed in the window. */
  const closedWithin = async (
    client: { head: (server: Served) => string; dripMs?: number },
    window: { fromMs: number; toMs: number },
  ) =>
    Promise.all(
      served.map(async (server) => {
        const outcome = await slowClient(server.url, {
          ...client,
          head: client.head(server),
          giveUpMs: 10_000,
        });
        const { closedAfterMs } = outcome;
        return {
          name: server.name,
          status: outcome.answer.split('\r\n')[0],
          inTime: closedAfterMs >= window.fromMs && closedAfterMs <= window.toMs ? true : closedAfterMs,
        };
      }),
    );
  const everyServer = (status: string) => served.map(({ name }) => ({ name, status, inTime: true }));

  it('answers 408 and closes a connection whose body trickles in one byte at a time', async () => {
    const trickledBody = (server: Served) =>
      `${requestHead(server.url, {
        path: server.post.path,
        headers: [...server.post.headers, ['content-length', '100000']],
      })}{`;
    expect(
      await closedWithin(
        { head: trickledBody, dripMs: 100 },
        { fromMs: short.requestMs, toMs: short.requestMs + slack },
      ),
    ).toEqual(everyServer('HTTP/1.1 408 Request Timeout'));
  });

  it('answers 408 and closes a connection whose headers trickle in, within the headers timeout', async () => {
    const trickledHeaders = (server: Served) =>
      requestHead(server.url, { path: server.post.path, open: true });
    expect(
      await closedWithin(
        { head: trickledHeaders, dripMs: 100 },
        { fromMs: short.headersMs, toMs: short.headersMs + slack },
      ),
    ).toEqual(everyServer('HTTP/1.1 408 Request Timeout'));
  });

  it('closes an idle keep-alive connection after its keep-alive timeout', async () => {
    const oneRequest = (server: Served) => requestHead(server.url, { method: 'GET', path: server.get });
    expect(
      await closedWithin(
        { head: oneRequest },
        // Node closes an idle socket up to a second after the keep-alive timeout it announces to the client.
        { fromMs: short.keepAliveMs, toMs: short.keepAliveMs + 1_000 + slack },
      ),
    ).toEqual(everyServer('HTTP/1.1 200 OK'));
  });

  it('holds the defaults when none are given, the sandbox keeping idle connections as long as before (72 s)', async () => {
    const metrics = await serveMetrics(createWorkerMetrics().registry, '127.0.0.1', 0, stack.logger);
    closers.push(() => new Promise((resolve) => metrics?.close(resolve)));
    const servers = [metrics, stack.sandbox.app.server];
    expect(
      servers.map((server) => ({
        requestMs: server?.requestTimeout,
        headersMs: server?.headersTimeout,
        keepAliveMs: server?.keepAliveTimeout,
      })),
    ).toEqual([defaultServerTimeouts, defaultServerTimeouts]);
    expect(defaultServerTimeouts.keepAliveMs).toBeGreaterThanOrEqual(72_000);
  });
});

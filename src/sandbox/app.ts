import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { basicAuth, type SandboxCredentials } from './auth.js';
import { sendError } from './errors.js';
import { FaultInjector } from './faults.js';
import { boletoRoutes } from './routes/boletos.js';
import { controlRoutes } from './routes/control.js';
import { SandboxState } from './state.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';

export interface SandboxOptions {
  seed: number;
  credentials: SandboxCredentials;
  logger: Logger;
  now?: Date;
}

export interface Sandbox {
  app: FastifyInstance;
  state: SandboxState;
  faults: FaultInjector;
  webhooks: WebhookDispatcher;
}

const isBankPath = (url: string) => !url.startsWith('/sandbox/') && url !== '/healthz';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The offline bank: the spec's endpoints behind Basic auth and fault injection, plus the /sandbox control API. */
export function createSandbox(options: SandboxOptions): Sandbox {
  const state = new SandboxState({ seed: options.seed, now: options.now });
  const faults = new FaultInjector(options.seed);
  const webhooks = new WebhookDispatcher();
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ component: 'sandbox' }) as FastifyBaseLogger,
    disableRequestLogging: true,
  });

  const authenticate = basicAuth(options.credentials);
  app.addHook('onRequest', async (request, reply) => {
    if (!isBankPath(request.url)) return;
    await authenticate(request, reply);
    if (reply.sent) return;
    const decision = faults.decide(request.method, request.url.split('?')[0] ?? request.url);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (decision.kind === 'error') {
      if (decision.status === 429) {
        reply.header('retry-after', String(decision.retryAfterSeconds ?? 1));
        await sendError(reply, 429, 'RATE_LIMITED', 'Too many requests');
      } else {
        await sendError(
          reply,
          decision.status,
          'INTEGRATION_ERROR',
          'Unexpected integration error (injected)',
        );
      }
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      { method: request.method, url: request.url, status: reply.statusCode },
      'sandbox request',
    );
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`),
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  boletoRoutes(app, state);
  controlRoutes(app, state, faults);
  return { app, state, faults, webhooks };
}

export interface RunningSandbox extends Sandbox {
  url: string;
  stop(): Promise<void>;
}

/** Starts the sandbox on host:port (port 0 picks a free one) and answers its base URL. */
export async function startSandbox(
  options: SandboxOptions & { host: string; port: number },
): Promise<RunningSandbox> {
  const sandbox = createSandbox(options);
  const address = await sandbox.app.listen({ host: options.host, port: options.port });
  return { ...sandbox, url: address, stop: () => sandbox.app.close() };
}

import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { fastifyServerOptions, type ServerTimeouts } from '../../src/http/server-timeouts.js';
import { basicAuth, type SandboxCredentials } from './auth.js';
import { guardSandbox, type SandboxAccess } from './control-guard.js';
import { sendError } from './errors.js';
import { limitBankRequests, type RateLimitCounts, type SandboxRateLimit } from './rate-limit.js';
import { FaultInjector, type FaultSettings } from './faults.js';
import { sendInjectedError } from './injected-errors.js';
import { answerRequestErrorsInTheSpecShape, specShapedRouterOptions } from './request-errors.js';
import type { BiometricsSettings } from './biometrics/state.js';
import { sandboxWebAuthnSettings, trustListeningOrigins } from './biometrics/webauthn-settings.js';
import { biometricsRoutes } from './routes/biometrics.js';
import { boletoRoutes } from './routes/boletos.js';
import { cardRoutes } from './routes/cards.js';
import { authenticatorRoutes } from './routes/authenticators.js';
import { controlRoutes } from './routes/control.js';
import { dataControlRoutes } from './routes/data-control.js';
import { idRoutes } from './routes/ids.js';
import { metricsRoutes } from './routes/metrics.js';
import { recurrenceControlRoutes } from './routes/recurrence-control.js';
import { recurrenceRoutes } from './routes/recurrences.js';
import { refundRoutes } from './routes/refunds.js';
import { transferRoutes } from './routes/transfers.js';
import { webhookRoutes } from './routes/webhooks.js';
import { SandboxState } from './state.js';
import { WebhookDispatcher } from './webhooks/dispatcher.js';
import type { WebhookTarget } from './webhooks/target.js';
import type { WebAuthnSettings } from './webauthn.js';

export interface SandboxOptions {
  seed: number;
  credentials: SandboxCredentials;
  logger: Logger;
  now?: Date;
  /** Where webhooks are delivered; unset records them as undeliverable (changeable via the control API). */
  webhookUrl?: string;
  webhookSecret?: string;
  /** Retry and timeout overrides, e.g. short ones for tests (defaults: 5 attempts, 1 s base delay, 3 s). */
  webhookDelivery?: Partial<Pick<WebhookTarget, 'maxAttempts' | 'baseDelayMs' | 'timeoutMs'>>;
  /** Relying-party settings; origins default to the sandbox's own address once it listens. */
  webauthn?: Partial<WebAuthnSettings>;
  /** Consent window, settlement delay and enrollment windows (also changeable via the control API). */
  biometrics?: Partial<BiometricsSettings>;
  /** Faults from the start (also changeable via the control API); a reset returns to them. */
  faults?: Partial<FaultSettings>;
  /** The bank's own rate limit (429 with Retry-After beyond it); none when unset. */
  rateLimit?: SandboxRateLimit;
  /** Who may reach the sandbox and drive its control API. */
  access?: SandboxAccess;
  /**
   * How long a client may take to send a request (defaults: src/http/server-timeouts.ts; short ones in
   * tests).
   */
  timeouts?: Partial<ServerTimeouts>;
}

export interface Sandbox {
  app: FastifyInstance;
  state: SandboxState;
  faults: FaultInjector;
  webhooks: WebhookDispatcher;
  webauthn: WebAuthnSettings;
  /** Calls admitted and refused by the rate limit, when there is one. */
  rateLimit?: RateLimitCounts;
}

const isBankPath = (url: string) => !url.startsWith('/sandbox/') && url !== '/healthz';

const pathOf = (url: string) => url.split('?')[0] ?? url;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The offline bank: the spec's endpoints behind Basic auth and fault injection, plus the /sandbox control
 * API.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  const faults = new FaultInjector(options.seed, options.faults);
  const state = new SandboxState({
    seed: options.seed,
    now: options.now,
    biometrics: options.biometrics,
    readLagMs: () => faults.current().get_lag_ms,
  });
  const webauthn = sandboxWebAuthnSettings(options.webauthn);
  const webhooks = new WebhookDispatcher({
    logger: options.logger.child({ component: 'sandbox-webhooks' }),
    faults,
    target: { ...options.webhookDelivery, url: options.webhookUrl, secret: options.webhookSecret },
  });
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ component: 'sandbox' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    ...specShapedRouterOptions,
    ...fastifyServerOptions(options.timeouts),
  });

  guardSandbox(app, options.access ?? {});
  const authenticate = basicAuth(options.credentials);
  app.addHook('onRequest', async (request, reply) => {
    if (!isBankPath(request.url)) return;
    await authenticate(request, reply);
    if (reply.sent) return;
    const path = pathOf(request.url);
    const decision = faults.decide(request.method, path);
    if (decision.delayMs > 0) await sleep(decision.delayMs);
    if (decision.kind === 'error') {
      await sendInjectedError(reply, decision.status, path, decision.retryAfterSeconds);
    }
  });
  // After the route answered: only the answer changes, never the record the sandbox holds.
  app.addHook('onSend', async (request, reply, payload) => {
    const json = String(reply.getHeader('content-type') ?? '').startsWith('application/json');
    const succeeded = reply.statusCode >= 200 && reply.statusCode < 300;
    if (!isBankPath(request.url) || !succeeded || !json || typeof payload !== 'string') return payload;
    return faults.alter(request.method, pathOf(request.url), payload);
  });
  const rateLimit = options.rateLimit && limitBankRequests(app, options.rateLimit, isBankPath);
  app.addHook('onResponse', async (request, reply) => {
    request.log.debug(
      { method: request.method, url: request.url, status: reply.statusCode },
      'sandbox request',
    );
  });
  answerRequestErrorsInTheSpecShape(app);
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, 'NOT_FOUND', `no route ${request.method} ${pathOf(request.url)}`),
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  boletoRoutes(app, state);
  controlRoutes(app, state, faults, webhooks);
  webhookRoutes(app, webhooks);
  biometricsRoutes(app, { state, webhooks, webauthn });
  transferRoutes(app, state);
  recurrenceRoutes(app, state);
  refundRoutes(app, state);
  cardRoutes(app, state);
  metricsRoutes(app, state);
  recurrenceControlRoutes(app, state, webhooks);
  dataControlRoutes(app, state);
  idRoutes(app, state);
  authenticatorRoutes(app, state);
  app.addHook('onClose', () => webhooks.close());
  return { app, state, faults, webhooks, webauthn, rateLimit };
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
  trustListeningOrigins(sandbox.webauthn, options.webauthn, address);
  return { ...sandbox, url: address, stop: () => sandbox.app.close() };
}

import type { Client } from '@temporalio/client';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import { fastifyServerOptions, type ServerTimeouts } from '../http/server-timeouts.js';
import { webhookEnvelopeSchema, type WebhookEnvelope } from '../bank/schemas/webhook.js';
import { AcceptedEvents } from './accepted-events.js';
import { authenticateWebhook, type WebhookAuthSettings } from './authenticate.js';
import { deliverWebhook, TemporalUnavailableError } from './deliver.js';
import { staleness } from './freshness.js';
import { readJsonBody } from './json-body.js';
import { receivedWebhook } from './resources.js';
import { createReceiverMetrics } from './metrics.js';
import type { WebhookRouter } from './router.js';
import { traced } from './tracing.js';

export interface ReceiverOptions {
  client: Client;
  taskQueue: string;
  auth: WebhookAuthSettings;
  router: WebhookRouter;
  logger: Logger;
  /** Largest body accepted, in bytes (413 above). */
  bodyLimit?: number;
  /**
   * Refuse envelopes whose timestamp is further than this from now (replay protection); `undefined` turns the
   * check off, which only development allows (config: WEBHOOK_MAX_AGE_SECONDS=0).
   */
  maxAgeMs: number | undefined;
  /** How long Temporal may take to accept an event before the bank is told to retry (503). */
  temporalDeadlineMs?: number;
  /** Webhooks handled at once; one more is answered 503 at once, so the bank retries it later. */
  maxInFlight?: number;
  /**
   * How long a client may take to send a request (defaults: src/http/server-timeouts.ts; short ones in
   * tests).
   */
  timeouts?: Partial<ServerTimeouts>;
  /**
   * The server /metrics and /readyz are served on, apart from the public one (WEBHOOK_INTERNAL_PORT): metrics
   * tell who sends what and how often, readiness whether Temporal is reachable, neither for the internet. On
   * the receiver's own server when unset.
   */
  internal?: FastifyInstance;
}

/**
 * Beyond this many webhooks in flight the receiver is past what it and Temporal can finish within the
 * deadline: every request then shares the CPU with all the others, each one's deadline passes before its
 * signal is even sent, and the receiver ends up answering 503 to all of them after doing all their work
 * (measured at 1,000 events/s on 2 cores: 0 acknowledged per second). Refusing the extras before any work
 * keeps the admitted ones in time. 200 is about 0.5 s of work at the 400 signals/s Temporal's dev server took
 * there.
 */
const defaultMaxInFlight = 200;

const problem = (reply: FastifyReply, status: number, reason: string) =>
  reply.code(status).send({ error: reason });

function parseEnvelope(raw: Buffer): { ok: true; envelope: WebhookEnvelope } | { ok: false; reason: string } {
  const json = readJsonBody(raw);
  if (!json.ok) return json;
  const parsed = webhookEnvelopeSchema.safeParse(json.value);
  if (parsed.success) return { ok: true, envelope: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    reason: `${issue?.path.map(String).join('.') || 'body'}: ${issue?.message ?? 'invalid'}`,
  };
}

/**
 * POST /webhooks: authenticate -> parse -> check freshness -> route by id -> signal -> 202. The 202 is sent
 * only after Temporal has accepted the event, so an acknowledged webhook is never lost; when Temporal cannot
 * take it the bank gets a 503 and retries. A replay of an event this receiver accepted gets the first answer
 * again, marked `duplicate`, without reaching Temporal.
 */
export function createReceiver(options: ReceiverOptions): FastifyInstance {
  const metrics = createReceiverMetrics();
  const deadlineMs = options.temporalDeadlineMs ?? 2_000;
  const accepted = new AcceptedEvents(options.maxAgeMs);
  const maxInFlight = options.maxInFlight ?? defaultMaxInFlight;
  let inFlight = 0;
  const app: FastifyInstance = Fastify({
    loggerInstance: options.logger.child({ component: 'webhook-receiver' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit ?? 256 * 1024,
    ...fastifyServerOptions(options.timeouts),
  });
  app.removeAllContentTypeParsers();
  // Fastify matches the whole header, parameters included: `application/json; charset=utf-8` must pass too.
  app.addContentTypeParser(
    /^application\/([^;]+\+)?json(;|$)/,
    { parseAs: 'buffer' },
    (_request, body, done) => done(null, body),
  );

  app.get('/healthz', async () => ({ status: 'ok' }));
  const operations = options.internal ?? app;
  operations.get('/readyz', async (_request, reply) => {
    try {
      await options.client.connection.withDeadline(Date.now() + deadlineMs, () =>
        options.client.workflowService.getSystemInfo({}),
      );
      return { status: 'ready' };
    } catch (error) {
      return problem(reply, 503, `Temporal is unreachable: ${(error as Error).message}`);
    }
  });
  operations.get('/metrics', async (_request, reply) =>
    reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );

  const receive = async (request: FastifyRequest, reply: FastifyReply) => {
    const stopTimer = metrics.ackSeconds.startTimer();
    const reject = (status: number, reason: string, category = 'unknown') => {
      metrics.received.inc({ outcome: String(status), category });
      stopTimer();
      request.log.warn({ status, reason }, 'webhook rejected');
      return problem(reply, status, reason);
    };
    const raw = request.body;
    if (!Buffer.isBuffer(raw)) return reject(400, 'empty body');

    const auth = authenticateWebhook(options.auth, request.headers, raw);
    if (!auth.ok) return reject(401, auth.reason);
    const parsed = parseEnvelope(raw);
    if (!parsed.ok) return reject(400, parsed.reason);

    const { envelope } = parsed;
    const stale = staleness(envelope.timestamp, options.maxAgeMs);
    if (stale) return reject(401, stale, envelope.category);
    const event = receivedWebhook(envelope);
    const earlier = accepted.find(event.key);
    if (earlier) {
      metrics.received.inc({ outcome: 'duplicate', category: envelope.category });
      stopTimer();
      request.log.info({ key: event.key, ...earlier }, 'webhook replay acknowledged');
      return reply.code(202).send({ accepted: event.key, ...earlier, duplicate: true });
    }
    try {
      const outcome = await options.client.connection
        .withDeadline(Date.now() + deadlineMs, async () =>
          deliverWebhook(options.client, options.taskQueue, event, await options.router(envelope)),
        )
        .catch((error: unknown) => {
          throw error instanceof TemporalUnavailableError ? error : new TemporalUnavailableError(error);
        });
      accepted.remember(event.key, envelope.timestamp, outcome);
      metrics.received.inc({ outcome: outcome.delivered, category: envelope.category });
      stopTimer();
      request.log.info({ key: event.key, ...outcome }, 'webhook accepted');
      return reply
        .code(202)
        .send({ accepted: event.key, workflowId: outcome.workflowId, delivered: outcome.delivered });
    } catch (error) {
      if (error instanceof TemporalUnavailableError) return reject(503, error.message, envelope.category);
      throw error;
    }
  };

  app.post('/webhooks', async (request, reply) => {
    if (inFlight >= maxInFlight) {
      // No log line per refusal: under overload it would cost the CPU the admitted webhooks need; the metric
      // counts them.
      metrics.received.inc({ outcome: 'busy', category: 'unknown' });
      return problem(reply, 503, `busy: ${inFlight} webhooks in flight; retry later`);
    }
    inFlight++;
    try {
      return await traced(request, reply, () => receive(request, reply));
    } finally {
      inFlight--;
    }
  });

  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'webhook handling failed');
    metrics.received.inc({ outcome: String(status), category: 'unknown' });
    return problem(reply, status, status === 413 ? 'body too large' : error.message);
  });
  return app;
}

/**
 * The receiver's internal server (WEBHOOK_INTERNAL_PORT), for Prometheus and the orchestrator's readiness
 * probe: createReceiver adds /metrics and /readyz to it; /healthz answers here too, so one port serves every
 * probe.
 */
export function createInternalServer(logger: Logger, timeouts?: Partial<ServerTimeouts>): FastifyInstance {
  const app: FastifyInstance = Fastify({
    loggerInstance: logger.child({ component: 'webhook-receiver-internal' }) as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    ...fastifyServerOptions(timeouts),
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  return app;
}

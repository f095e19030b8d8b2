import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { webhookEnvelopeSchema } from '../../../src/bank/schemas/webhook.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { webhookEventStatuses } from '../webhooks/delivery-log.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebhookTarget } from '../webhooks/target.js';

const targetUpdateSchema = z.strictObject({
  /** null stops delivery: later events are recorded as undeliverable. */
  url: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .optional(),
  secret: z.string().min(1).optional(),
  max_attempts: z.number().int().min(1).max(10).optional(),
  base_delay_ms: z.number().int().nonnegative().optional(),
  timeout_ms: z.number().int().positive().optional(),
});

const logFilterSchema = z.object({
  ref_id: z.string().optional(),
  category: z.string().optional(),
  event_id: z.string().optional(),
});

const eventFilterSchema = logFilterSchema.extend({ status: z.enum(webhookEventStatuses).optional() });

/** What an operator or a test may announce; the dispatcher stamps the timestamp. */
const announcedEventSchema = webhookEnvelopeSchema.omit({ timestamp: true });

/** The secret is write-only: the control API never shows it. */
function targetView(target: WebhookTarget) {
  return {
    url: target.url,
    max_attempts: target.maxAttempts,
    base_delay_ms: target.baseDelayMs,
    timeout_ms: target.timeoutMs,
  };
}

/** The bank's outgoing webhooks: where they go, what was published, and every delivery attempt. */
export function webhookRoutes(app: FastifyInstance, webhooks: WebhookDispatcher): void {
  app.get('/sandbox/webhooks/config', async () => ({ data: targetView(webhooks.settings) }));

  app.put('/sandbox/webhooks/config', async (request, reply) => {
    const parsed = targetUpdateSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const update = parsed.data;
    webhooks.configure({
      url: update.url,
      secret: update.secret,
      maxAttempts: update.max_attempts,
      baseDelayMs: update.base_delay_ms,
      timeoutMs: update.timeout_ms,
    });
    return { data: targetView(webhooks.settings) };
  });

  app.get('/sandbox/webhooks/events', async (request, reply) => {
    const filter = eventFilterSchema.safeParse(request.query);
    if (!filter.success) return sendValidationErrors(reply, zodErrorItems(filter.error));
    return { data: webhooks.log.listEvents(filter.data) };
  });

  app.post('/sandbox/webhooks/events', async (request, reply) => {
    const event = announcedEventSchema.safeParse(request.body ?? {});
    if (!event.success) return sendValidationErrors(reply, zodErrorItems(event.error));
    return reply.code(201).send({ data: webhooks.announce(event.data) });
  });

  app.get('/sandbox/webhooks/deliveries', async (request, reply) => {
    const filter = logFilterSchema.safeParse(request.query);
    if (!filter.success) return sendValidationErrors(reply, zodErrorItems(filter.error));
    return { data: webhooks.log.listAttempts(filter.data) };
  });
}

import { z } from 'zod';
import { dateTime, uuid } from './common.js';
import { printable } from './printable.js';

/**
 * The envelope of every webhook the bank sends. `data` is the full record; its schema depends on `category`
 * and is checked by whoever consumes the event.
 */
export const webhookEnvelopeSchema = z.looseObject({
  category: printable.min(1),
  type: printable.min(1),
  ref_id: uuid,
  timestamp: dateTime,
  data: z.looseObject({}),
  context_type: printable.optional(),
  context_id: printable.optional(),
});
export type WebhookEnvelope = z.infer<typeof webhookEnvelopeSchema>;

export { webhookCategories } from '../vocabulary.js';

/** Headers the bank (and the sandbox) sign webhooks with; see docs/decisions.md. */
export const webhookHeaders = {
  signature: 'x-webhook-signature',
  secret: 'x-webhook-secret',
  /** The sandbox's id of the event, the same on every attempt and copy; the spec shows no event id. */
  id: 'x-webhook-id',
} as const;

import type { WebhookEnvelope } from '../bank/schemas/webhook.js';

/** A webhook as the receiver hands it to a workflow: the bank's envelope plus when and how it arrived. */
export interface ReceivedWebhook {
  /** Dedupe key: the same for every retry or copy of one bank event. */
  key: string;
  envelope: WebhookEnvelope;
  receivedAt: string;
}

/**
 * Category + type + ref_id + timestamp identify one bank event: a retried or duplicated delivery carries the
 * same four, a new status change does not.
 */
export function webhookEventKey(
  envelope: Pick<WebhookEnvelope, 'category' | 'type' | 'ref_id' | 'timestamp'>,
): string {
  return `${envelope.category}:${envelope.type}:${envelope.ref_id}:${envelope.timestamp}`;
}

import type { BiometricPayment } from '../bank/schemas/biometric-payment.js';
import type { CollectingDocument } from '../bank/schemas/collecting-document.js';
import type { WebhookCollectionAttempt } from '../bank/schemas/collection-attempt.js';
import type { Enrollment } from '../bank/schemas/enrollment.js';
import type { WebhookEnvelope } from '../bank/schemas/webhook.js';

/**
 * The bank resource a webhook's `data` holds, checked by the receiver against that resource's schema, so that
 * workflow code takes typed data without loading zod (every module workflow code imports is loaded again for
 * each cached workflow).
 */
export type WebhookResource =
  | { kind: 'enrollment'; data: Enrollment }
  | { kind: 'payment'; data: BiometricPayment }
  | { kind: 'cash-in'; data: CollectingDocument }
  | { kind: 'collection-attempt'; data: WebhookCollectionAttempt };

/** A webhook as the receiver hands it to a workflow: the bank's envelope plus when and how it arrived. */
export interface ReceivedWebhook {
  /** Dedupe key: the same for every retry or copy of one bank event. */
  key: string;
  envelope: WebhookEnvelope;
  receivedAt: string;
  /** Absent when `data` is not the resource the category announces. */
  resource?: WebhookResource;
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

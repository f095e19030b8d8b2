import type { WebhookCollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { Enrollment } from '../../src/bank/schemas/enrollment.js';
import { webhookCategories } from '../../src/bank/vocabulary.js';
import { webhookEventKey, type ReceivedWebhook } from '../../src/contract/webhook-events.js';

/**
 * A webhook as the receiver hands it to a workflow, for the resource `data` with `status`, at `timestamp`.
 */
function received(
  category: string,
  data: { id: string; status: string },
  timestamp: string,
  resource: ReceivedWebhook['resource'],
): ReceivedWebhook {
  const envelope = { category, type: data.status, ref_id: data.id, timestamp, data };
  return { key: webhookEventKey(envelope), envelope, receivedAt: timestamp, resource };
}

/** An enrollment webhook claiming `data`: every call with the same data is a copy of one bank event. */
export const enrollmentWebhook = (data: Enrollment): ReceivedWebhook =>
  received(webhookCategories.enrollment, data, data.updated_at, { kind: 'enrollment', data });

/** A `recurrence_collection_attempt` webhook claiming `data`. */
export const collectionAttemptWebhook = (data: WebhookCollectionAttempt): ReceivedWebhook =>
  received(webhookCategories.recurrenceCollectionAttempt, data, data.updated_at, {
    kind: 'collection-attempt',
    data,
  });

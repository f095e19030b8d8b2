import type { WebhookEnvelope } from '../../../src/bank/schemas/webhook.js';
import type { WebhookFaultDecision } from '../faults.js';

export const webhookEventStatuses = [
  'pending',
  'held',
  'delivered',
  'failed',
  'dropped',
  'undeliverable',
  'cancelled',
] as const;
export type WebhookEventStatus = (typeof webhookEventStatuses)[number];

export interface WebhookEventRecord {
  id: string;
  status: WebhookEventStatus;
  envelope: WebhookEnvelope;
  /**
   * The resource the event is really about when the foreign-id fault made `envelope` name another; else null.
   */
  replaced_ref_id: string | null;
  /** The receiver it was addressed to when published; null when none was configured. */
  url: string | null;
  /** Null when it was not going to be sent: no URL, or the sandbox was closing. */
  faults: WebhookFaultDecision | null;
  attempts: number;
  /** 2 when the duplicate fault sent it twice and both copies arrived. */
  delivered_copies: number;
}

export interface DeliveryAttempt {
  event_id: string;
  category: string;
  type: string;
  ref_id: string;
  /** 2 for the second copy the duplicate fault sends. */
  copy: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  delivered: boolean;
}

/** What the dispatcher knows about one attempt; the log adds the event's identity. */
export type AttemptResult = Omit<DeliveryAttempt, 'event_id' | 'category' | 'type' | 'ref_id'>;

export interface WebhookLogFilter {
  ref_id?: string | undefined;
  category?: string | undefined;
  event_id?: string | undefined;
  status?: WebhookEventStatus | undefined;
}

/** Every event the sandbox published and every attempt to deliver one, for the control API. */
export class WebhookLog {
  private readonly events: WebhookEventRecord[] = [];
  private readonly attempts: DeliveryAttempt[] = [];

  /**
   * Forgets every event and attempt (a sandbox reset); deliveries still in flight log into the new history.
   */
  clear(): void {
    this.events.splice(0);
    this.attempts.splice(0);
  }

  addEvent(record: WebhookEventRecord): void {
    this.events.push(record);
  }

  addAttempt(event: WebhookEventRecord, attempt: AttemptResult): void {
    this.attempts.push({
      event_id: event.id,
      category: event.envelope.category,
      type: event.envelope.type,
      ref_id: event.envelope.ref_id,
      ...attempt,
    });
    event.attempts++;
    if (attempt.delivered) event.delivered_copies++;
  }

  listEvents(filter: WebhookLogFilter = {}): WebhookEventRecord[] {
    return this.events.filter(
      (event) =>
        (!filter.event_id || event.id === filter.event_id) &&
        (!filter.status || event.status === filter.status) &&
        (!filter.ref_id || event.envelope.ref_id === filter.ref_id) &&
        (!filter.category || event.envelope.category === filter.category),
    );
  }

  listAttempts(filter: WebhookLogFilter = {}): DeliveryAttempt[] {
    return this.attempts.filter(
      (attempt) =>
        (!filter.event_id || attempt.event_id === filter.event_id) &&
        (!filter.ref_id || attempt.ref_id === filter.ref_id) &&
        (!filter.category || attempt.category === filter.category),
    );
  }
}

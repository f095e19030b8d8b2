import type { ReceivedWebhook } from '../webhook-events.js';

/** What a workflow publishes about the webhooks it heard. */
export interface WebhookCounters {
  webhooksReceived: number;
  duplicateWebhooks: number;
}

/**
 * Webhooks a workflow has taken in, deduplicated by event key: a retried or duplicated delivery changes nothing.
 */
export class EventInbox {
  private readonly seen = new Set<string>();

  /** Counts the event in `counters` and answers it for handling, or nothing when it is a copy of one already heard. */
  receive(event: ReceivedWebhook, counters: WebhookCounters): ReceivedWebhook[] {
    if (this.seen.has(event.key)) {
      counters.duplicateWebhooks++;
      return [];
    }
    this.seen.add(event.key);
    counters.webhooksReceived++;
    return [event];
  }
}

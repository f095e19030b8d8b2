import type { ReceivedWebhook } from '../../contract/webhook-events.js';

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

  /** Counts the event in `counters` and answers whether it is new, rather than a copy of one already heard. */
  isNew(event: ReceivedWebhook, counters: WebhookCounters): boolean {
    if (this.seen.has(event.key)) {
      counters.duplicateWebhooks++;
      return false;
    }
    this.seen.add(event.key);
    counters.webhooksReceived++;
    return true;
  }
}

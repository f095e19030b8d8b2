import { maxCarriedWebhookKeys } from '../../contract/run-lifetime.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';

/** What a workflow publishes about the webhooks it heard. */
export interface WebhookCounters {
  webhooksReceived: number;
  duplicateWebhooks: number;
}

/**
 * Webhooks a workflow has taken in, deduplicated by event key: a retried or duplicated delivery changes
 * nothing, also when it arrives after the workflow continued as new, since each run hands its newest keys to
 * the next.
 */
export class EventInbox {
  private readonly seen: Set<string>;

  /** @param carried the keys the previous run kept, oldest first */
  constructor(carried: readonly string[] = []) {
    this.seen = new Set(carried);
  }

  /**
   * Counts the event in `counters` and answers whether it is new, rather than a copy of one already heard.
   */
  isNew(event: ReceivedWebhook, counters: WebhookCounters): boolean {
    const first = this.firstHeard(event.key);
    if (first) counters.webhooksReceived++;
    else counters.duplicateWebhooks++;
    return first;
  }

  /** Takes the key in; answers whether it is heard for the first time. */
  firstHeard(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  /** The newest keys, oldest first, for the next run: a bounded number (maxCarriedWebhookKeys says why). */
  kept(): string[] {
    return [...this.seen].slice(-maxCarriedWebhookKeys);
  }
}

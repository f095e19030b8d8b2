import type { ReceivedWebhook } from '../webhook-events.js';

/**
 * Webhooks a workflow has taken in, deduplicated by event key: a retried or duplicated delivery changes nothing.
 * `count` moves on every new event, so waiting code can tell that something arrived.
 */
export class EventInbox {
  private readonly seen = new Set<string>();
  private readonly pending: ReceivedWebhook[] = [];
  count = 0;
  duplicates = 0;

  accept(event: ReceivedWebhook): boolean {
    if (this.seen.has(event.key)) {
      this.duplicates++;
      return false;
    }
    this.seen.add(event.key);
    this.pending.push(event);
    this.count++;
    return true;
  }

  /** Takes every event not handled yet, oldest bank timestamp first. */
  drain(): ReceivedWebhook[] {
    const events = this.pending
      .splice(0)
      .sort((a, b) => a.envelope.timestamp.localeCompare(b.envelope.timestamp));
    return events;
  }
}

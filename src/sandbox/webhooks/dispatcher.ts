import type { WebhookEnvelope } from '../../bank/schemas/webhook.js';

/** What a sandbox route publishes when a record changes; the dispatcher stamps the timestamp. */
export interface WebhookEvent {
  category: string;
  type: string;
  ref_id: string;
  data: Record<string, unknown>;
  context_type?: string;
  context_id?: string;
}

/**
 * The bank's outgoing webhooks. Routes call `publish`; every published envelope is kept in `published` so tests
 * and the control API can see what the bank announced.
 */
export class WebhookDispatcher {
  readonly published: WebhookEnvelope[] = [];

  constructor(private readonly now: () => Date = () => new Date()) {}

  publish(event: WebhookEvent): WebhookEnvelope {
    const envelope: WebhookEnvelope = { ...event, timestamp: this.now().toISOString() };
    this.published.push(envelope);
    return envelope;
  }
}

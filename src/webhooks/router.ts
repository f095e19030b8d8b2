import type { SignalDefinition } from '@temporalio/workflow';
import type { WebhookEnvelope } from '../bank/schemas/webhook.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/**
 * Where one bank event goes, named by the event alone: a signal to the workflow that owns the record it is
 * about, or (`cashIn`) to the holder of the cash-ins of one end-to-end id, started by the signal if need be.
 */
export type WebhookRoute =
  { workflowId: string; signal: SignalDefinition<[ReceivedWebhook]> } | { cashIn: string };

/**
 * One category's rule: business keys in the envelope name the workflow without a database or a search; an
 * event without them has no route and is kept as unmatched.
 */
export type WebhookRouteRule = (envelope: WebhookEnvelope) => WebhookRoute | undefined;

export function createRouter(rules: Record<string, WebhookRouteRule>) {
  // A Map, so a category named `constructor` or `__proto__` finds no rule instead of Object.prototype's
  // members.
  const byCategory = new Map(Object.entries(rules));
  return (envelope: WebhookEnvelope): WebhookRoute | undefined =>
    byCategory.get(envelope.category)?.(envelope);
}

/**
 * What the receiver routes with: `createRouter`'s rules, or a wrapper that may wait (tests hold a webhook
 * so).
 */
export type WebhookRouter = (
  envelope: WebhookEnvelope,
) => WebhookRoute | undefined | Promise<WebhookRoute | undefined>;

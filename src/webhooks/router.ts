import type { Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/workflow';
import type { WebhookEnvelope } from '../bank/schemas/webhook.js';
import { visibilityLiteral } from '../temporal/visibility.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/** Where one bank event goes: a signal to the workflow that owns the record it is about. */
export interface WebhookRoute {
  workflowId: string;
  signal: SignalDefinition<[ReceivedWebhook]>;
}

/** Finds the workflow whose search attribute `attribute` equals `value` (Temporal visibility). */
export type VisibilityLookup = (attribute: string, value: string) => Promise<string | undefined>;

/**
 * One category's rule: business keys in the envelope name the workflow without a database; when they are
 * missing, a visibility lookup on a search attribute (e.g. the bank's record id) finds it.
 */
export type WebhookRouteRule = (
  envelope: WebhookEnvelope,
  lookup: VisibilityLookup,
) => Promise<WebhookRoute | undefined>;

export function createRouter(rules: Record<string, WebhookRouteRule>) {
  // A Map, so a category named `constructor` or `__proto__` finds no rule instead of Object.prototype's members.
  const byCategory = new Map(Object.entries(rules));
  return async (envelope: WebhookEnvelope, lookup: VisibilityLookup): Promise<WebhookRoute | undefined> =>
    byCategory.get(envelope.category)?.(envelope, lookup);
}

export type WebhookRouter = ReturnType<typeof createRouter>;

/** The most recently started workflow carrying the search attribute value. */
export function visibilityLookup(client: Client): VisibilityLookup {
  return async (attribute, value) => {
    // No search attribute bankflow sets holds a NUL, and SQL visibility stores fail on one with Unavailable,
    // which the client retries until the receiver's deadline.
    if (value.includes('\u0000')) return undefined;
    for await (const workflow of client.workflow.list({
      query: `${attribute} = ${visibilityLiteral(value)}`,
      pageSize: 1,
    })) {
      return workflow.workflowId;
    }
    return undefined;
  };
}

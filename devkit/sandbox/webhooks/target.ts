import { developmentWebhookSecret } from '../../../src/config.js';

/**
 * Where and how the sandbox delivers webhooks. `configure` replaces it as a whole, and an event keeps the
 * target it was published under, so a change at run time never splits one event's attempts across receivers.
 */
export interface WebhookTarget {
  /** Without a URL, events are recorded as undeliverable and not sent. */
  url: string | null;
  secret: string;
  maxAttempts: number;
  /** The wait before the first retry; each later retry waits twice as long as the one before. */
  baseDelayMs: number;
  /** Per attempt, from connecting to the end of the response. */
  timeoutMs: number;
}

export const defaultWebhookTarget: WebhookTarget = {
  url: null,
  secret: developmentWebhookSecret,
  maxAttempts: 5,
  baseDelayMs: 1_000,
  timeoutMs: 3_000,
};

/** The wait after the `failedAttempts`-th failed attempt: base, 2 x base, 4 x base, ... */
export function backoffMs(target: WebhookTarget, failedAttempts: number): number {
  return target.baseDelayMs * 2 ** (failedAttempts - 1);
}

/** `update` over `target`; fields left undefined keep their value. */
export function mergeTarget(target: WebhookTarget, update: Partial<WebhookTarget>): WebhookTarget {
  const given = Object.entries(update).filter(([, value]) => value !== undefined);
  return { ...target, ...Object.fromEntries(given) };
}

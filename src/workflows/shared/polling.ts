import { condition } from '@temporalio/workflow';

export interface PollingSettings {
  /** Silence after which the workflow asks the bank itself, doubled after each unanswered poll. */
  firstPollAfterMs: number;
  maxPollIntervalMs: number;
}

export const defaultPolling: PollingSettings = { firstPollAfterMs: 20_000, maxPollIntervalMs: 120_000 };

/**
 * Waits until `done()` holds or the deadline passes, trusting webhooks first: after a silence it polls the bank,
 * with exponential backoff, so a lost webhook delays the flow but never strands it. Answers whether `done()`
 * held; the bank is polled one last time at the deadline.
 */
export async function waitWithPolling(options: {
  done: () => boolean;
  deadline: number;
  poll: () => Promise<void>;
  polling: PollingSettings;
  /** A counter of arrivals (webhooks); any arrival restarts the silence before the next poll. */
  arrivals?: () => number;
}): Promise<boolean> {
  let interval = options.polling.firstPollAfterMs;
  while (!options.done()) {
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      await options.poll();
      return options.done();
    }
    const seen = options.arrivals?.();
    const changed = await condition(
      () => options.done() || (seen !== undefined && options.arrivals?.() !== seen),
      Math.min(interval, remaining),
    );
    if (options.done()) return true;
    if (changed) {
      interval = options.polling.firstPollAfterMs;
      continue;
    }
    await options.poll();
    interval = Math.min(interval * 2, options.polling.maxPollIntervalMs);
  }
  return true;
}

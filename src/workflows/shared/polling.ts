import { condition, workflowInfo } from '@temporalio/workflow';
import type { PollingSettings } from '../../contract/polling.js';
import type { PollTrigger } from '../../contract/task-queues.js';
import type { PollTimer } from './poll-timer.js';

/** A stretched wait stays within the consent window: a customer may be looking at the payment. */
export const defaultPolling: PollingSettings = {
  firstPollAfterMs: 20_000,
  maxPollIntervalMs: 120_000,
  stretchCeilingMs: 300_000,
};

/**
 * After a hint the bank's GET did not confirm yet, the bank is asked again this soon, doubling from there: a
 * real bank's reads lag its event stream by moments, not by a polling interval.
 */
const hintRecheckMs = 1_000;

/**
 * The webhooks that asked a workflow to read the bank: whether one is still unanswered, and when a read
 * answers them.
 */
export interface Hints {
  /** A hint heard since the bank was last asked names something its record does not show yet. */
  pending(): boolean;
  /** The bank is being asked now: this read answers every hint heard so far. */
  asked(): void;
}

/** How a wait for the bank ended. */
export type FollowEnd = 'done' | 'deadline' | 'history-full' | 'new-version';

/**
 * Follows the bank until `done()` holds or the deadline passes. A hint (a webhook) sends the workflow to the
 * bank at once, since only the bank's own record counts, and again soon after if the record did not show it
 * yet; after a silence it polls with exponential backoff, so a lost webhook delays the flow but never strands
 * it. The bank is asked one last time at the deadline. With `historyBound`, the wait also ends once the run's
 * history reaches it, for the caller to continue as new. A `timer` with a pace stretches the waits while
 * polls wait long for the poll budget (poll-pace.ts); a hint's read never waits for a timer. With
 * `newVersion`, the wait ends at the workflow task that finds a new version current (after the read a hint or
 * a timer asked for in it), for the caller to continue as new onto it (continue-as-new.ts).
 */
export async function followBank(options: {
  done: () => boolean;
  deadline: number;
  /** Reads the bank; `trigger` says whether a hint or a timer (or the deadline) asked. */
  poll: (trigger: PollTrigger) => Promise<void>;
  polling: PollingSettings;
  /** A pending hint makes the workflow ask the bank now. */
  hints?: Hints;
  historyBound?: number;
  newVersion?: () => boolean;
  /** Keeps one poll timer across waits (poll-timer.ts); without it each wait has a timer of its own. */
  timer?: PollTimer;
  /**
   * While the bank's reads fail (shared/bank-reads.ts), the bank is asked again at this backoff rather than
   * at a sparse wait's, so a journey that waits days between reads goes on soon after the bank answers again.
   */
  trouble?: { active: () => boolean; polling: PollingSettings };
}): Promise<FollowEnd> {
  const { done, poll, polling, hints, timer, trouble } = options;
  const newVersion = options.newVersion ?? (() => false);
  const pace = timer?.pace;
  let troubleInterval = trouble?.polling.firstPollAfterMs ?? Infinity;
  // A run continued as new in trouble asks at the trouble's pace from its first wait, not after a day.
  let interval = Math.min(polling.firstPollAfterMs, trouble?.active() ? troubleInterval : Infinity);
  while (!done()) {
    if (options.historyBound !== undefined && historyFull(options.historyBound)) return 'history-full';
    if (newVersion()) return 'new-version';
    const remaining = options.deadline - Date.now();
    if (remaining <= 0) {
      await poll('timer');
      return done() ? 'done' : 'deadline';
    }
    const ready = () => done() || newVersion() || (hints?.pending() ?? false);
    const wait = Math.min(pace ? pace.next(interval, polling.stretchCeilingMs) : interval, remaining);
    const fellDue = timer ? await timer.wait(Date.now() + wait, ready) : !(await condition(ready, wait));
    if (done()) return 'done';
    // Woken by a new version alone, it hands over with no read; a due poll or a hint is answered first.
    if (!fellDue && newVersion() && !(hints?.pending() ?? false)) continue;
    // Marked before the read: a hint that arrives while it is under way stays pending, the answer may predate
    // it.
    hints?.asked();
    await poll(fellDue ? 'timer' : 'hint');
    interval = fellDue
      ? Math.min(interval * 2, polling.maxPollIntervalMs)
      : Math.min(hintRecheckMs, polling.firstPollAfterMs);
    if (trouble?.active()) {
      interval = Math.min(interval, troubleInterval);
      troubleInterval = Math.min(troubleInterval * 2, trouble.polling.maxPollIntervalMs);
    } else if (trouble) troubleInterval = trouble.polling.firstPollAfterMs;
  }
  return 'done';
}

/**
 * Whether the run should hand over to a new one: its history reached `bound` events (a poll cycle adds about
 * a dozen, so callers leave that much headroom below their stated bound), or the server suggests it.
 */
export function historyFull(bound: number): boolean {
  const info = workflowInfo();
  return info.historyLength >= bound || info.continueAsNewSuggested;
}

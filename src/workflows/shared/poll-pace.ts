import { patched } from '@temporalio/workflow';
import { stretchedPollInterval } from '../../contract/polling.js';

/**
 * Since this patch a payment stretches its waits between polls by how long its last poll waited for the poll
 * budget (docs/decisions.md, "Polling within a budget"); runs started before it poll on the plan alone.
 */
export const pollPacePatch = 'poll-pace';

/**
 * How long the journey's last poll took from scheduling to answer, in workflow time: with the poll budget
 * saturated that is mostly the polls queue's backlog, which grows with the open journeys, so each of them polling
 * less often as it grows keeps the budget's backlog a small part of them, with no count of them shared anywhere.
 */
export class PollPace {
  private lastWaitMs = 0;

  /** A pace for this run, or undefined for a run started before the patch. */
  static forRun(): PollPace | undefined {
    return patched(pollPacePatch) ? new PollPace() : undefined;
  }

  /** Runs `read`, keeping how long it took. */
  async measure<T>(read: () => Promise<T>): Promise<T> {
    const askedAt = Date.now();
    try {
      return await read();
    } finally {
      this.lastWaitMs = Date.now() - askedAt;
    }
  }

  /** The wait before the next poll, `plannedMs` stretched by the last poll's wait up to `ceilingMs`. */
  next(plannedMs: number, ceilingMs: number | undefined): number {
    return stretchedPollInterval(plannedMs, this.lastWaitMs, ceilingMs);
  }
}

/** Runs `read`, measured when the run has a pace. */
export const pacedRead = <T>(pace: PollPace | undefined, read: () => Promise<T>): Promise<T> =>
  pace ? pace.measure(read) : read();

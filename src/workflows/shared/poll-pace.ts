import { stretchedPollInterval } from '../../contract/polling.js';

/**
 * How long the journey's last poll took from scheduling to answer, in workflow time: with the poll budget
 * saturated that is mostly the polls queue's backlog, which grows with the open journeys, so each of them
 * polling less often as it grows keeps the budget's backlog a small part of them, with no count of them
 * shared anywhere.
 */
export class PollPace {
  private lastWaitMs = 0;

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

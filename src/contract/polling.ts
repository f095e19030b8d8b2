/**
 * How a journey follows the bank between webhooks; tests and the chaos run shorten it, merchants never set
 * it.
 */
export interface PollingSettings {
  /** Silence after which the workflow asks the bank itself, doubled after each unanswered poll. */
  firstPollAfterMs: number;
  maxPollIntervalMs: number;
  /**
   * The longest a wait between polls may be stretched while the poll budget is saturated: the floor of how
   * often the bank's windows still want the record read. Unset, waits are never stretched.
   */
  stretchCeilingMs?: number;
}

/**
 * How many times its last poll's wait (from scheduling to answer, mostly the polls queue's backlog when the
 * budget is saturated) a journey waits before its next poll. With N journeys polling a budget of B reads per
 * second, each settles at about N / B seconds apart and the backlog at about N / this: a tenth of the open
 * journeys.
 */
export const pollStretchFactor = 10;

/**
 * The wait before the next poll: the planned one, stretched to `pollStretchFactor` times the last poll's
 * wait, but never beyond the ceiling (and never below the plan).
 */
export function stretchedPollInterval(plannedMs: number, lastPollWaitMs: number, ceilingMs?: number): number {
  if (ceilingMs === undefined) return plannedMs;
  return Math.max(plannedMs, Math.min(pollStretchFactor * lastPollWaitMs, ceilingMs));
}

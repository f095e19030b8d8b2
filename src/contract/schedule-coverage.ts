import type { JobWindow } from './jobs.js';

const before = (a: string, b: string) => Date.parse(a) < Date.parse(b);

/**
 * A catch-up window spans at most this many of its schedule's times; a longer lag is covered in windows of
 * that size one after the other (a day of hourly metrics, six hours of 15-minute syncs, 24 days of daily
 * reports).
 */
export const maxScheduledTimesPerWindow = 24;

/**
 * Where the time covered by a schedule's completed runs ends, as one of its runs' results says
 * (`coveredUntil`).
 */
export function coveredUntilOf(result: unknown): string | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { coveredUntil } = result as { coveredUntil?: unknown };
  return typeof coveredUntil === 'string' && !Number.isNaN(Date.parse(coveredUntil))
    ? coveredUntil
    : undefined;
}

/** What a scheduled run knows when it picks its window. */
export interface CoverageFacts {
  /** Where the schedule's covered time ends (the last completed run's result); undefined before any. */
  coveredUntil: string | undefined;
  /** The run's nominal time (TemporalScheduledStartTime). */
  scheduledAt: string;
  /** The schedule's time before `scheduledAt`. */
  previous: string;
}

/**
 * A scheduled run's window and where the covered time ended before it; `catchingUp`: the window may be
 * capped.
 */
export interface CoveredWindow {
  window: JobWindow;
  coveredUntil: string;
  catchingUp: boolean;
}

/**
 * The window of a scheduled run: from where the covered time ends (the schedule's previous time, the first
 * time ever) to the run's scheduled time, so skipped, missed and failed runs leave their time to the next
 * run. A run whose time is already covered (a backfill, a re-run) covers its scheduled interval again and
 * moves nothing. `catchingUp`: the window reaches back past the previous scheduled time, so it may span more
 * scheduled times than one window may (the caller caps it, `capWindow`).
 */
export function scheduledWindow({ coveredUntil, scheduledAt, previous }: CoverageFacts): CoveredWindow {
  if (coveredUntil === undefined) {
    return { window: { from: previous, to: scheduledAt }, coveredUntil: previous, catchingUp: false };
  }
  if (!before(coveredUntil, scheduledAt)) {
    return { window: { from: previous, to: scheduledAt }, coveredUntil, catchingUp: false };
  }
  return {
    window: { from: coveredUntil, to: scheduledAt },
    coveredUntil,
    catchingUp: before(coveredUntil, previous),
  };
}

/** Ends a catching-up window at `end` when `end` falls inside it. */
export function capWindow(covered: CoveredWindow, end: string): CoveredWindow {
  const { from, to } = covered.window;
  if (!before(from, end) || !before(end, to)) return covered;
  return { ...covered, window: { from, to: end } };
}

/**
 * Where the covered time ends once a run completed `window`: it never moves back (a re-run of an older time).
 */
export function coveredAfter(coveredUntil: string, window: JobWindow): string {
  return before(coveredUntil, window.to) ? window.to : coveredUntil;
}

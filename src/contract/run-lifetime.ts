const minute = 60_000;
const day = 24 * 60 * minute;

/**
 * How long one run of a long-lived workflow (an authorized enrollment, a recurrence) stays open before it
 * continues as new, so that no run is older than the bound and none stays on an old Worker Deployment version
 * longer, even one that never hears of a new one (docs/upgrading-workflows.md). The bound travels in the
 * start input, which continue-as-new carries: a worker's own setting could not reach the workflow without a
 * recorded step, and a value read from the worker would make replay depend on the worker that replays.
 */
export const runLifetime = {
  /** The default, and the most a start may ask for. */
  maxMs: 30 * day,
  /** The least a start may ask for: shorter runs would spend their history on continuing as new. */
  minMs: minute,
};

/** The run lifetime a start asked for, held within the bounds; the default when it asked for none. */
export function runLifetimeMs(requested: number | undefined): number {
  if (requested === undefined || !Number.isFinite(requested)) return runLifetime.maxMs;
  return Math.min(Math.max(requested, runLifetime.minMs), runLifetime.maxMs);
}

/**
 * The most webhook keys one run hands to the next. A duplicate delivery comes within the bank's retries,
 * minutes to hours after the first, while the newest keys are kept; a copy older than the newest 500 keys
 * that slipped through still changes nothing, since only the bank's own record moves a journey. 500 keys are
 * about 50 KB of the continue-as-new input.
 */
export const maxCarriedWebhookKeys = 500;

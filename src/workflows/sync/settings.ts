import { jobBankRetry } from '../activity-options.js';

/**
 * A serial run's pages: a batch of pages costs the run one activity, so 1,000 pages (10 batches) make a run
 * of a few dozen events. Runs this long also stay clear of the Temporal server's minimum interval between
 * runs of one workflow id (`history.workflowIdReuseMinimalInterval`, 1 s by default): a run that continues as
 * new sooner has its next run's first workflow task held back until that second has passed, which made a
 * 10,000-attempt sync of 20-page runs spend 9 of its 9.5 s waiting (docs/performance.md).
 */
export const defaultPagesPerRun = 1_000;

/** Pages per run of a slice: the pages' records sit in the run's history until the run signals them. */
export const defaultPagesPerSliceRun = 20;

/**
 * Pages and their signals; the bank's transient failures and a refused credential are retried with backoff
 * for as long as they last.
 */
export const attemptsPageOptions = {
  retry: jobBankRetry,
  startToCloseTimeout: '2 minutes',
} as const;

/**
 * Pages one batch (one `deliverAttemptsPages` activity) takes at most: 5,000 attempts at the default page
 * size, each recurrence signalled once a batch (more past 1,000 attempts). Every batch is a round trip
 * through the workflow and wakes every recurrence on it, so fewer, larger batches cost less.
 */
export const pagesPerBatch = 100;

/**
 * A serial sync's page activity (`deliverAttemptsPages`): queued, a minute at most of deliveries, each
 * heartbeating its cursor; a worker lost mid-activity is noticed within the heartbeat timeout and the retry
 * resumes at the last heartbeated cursor.
 */
export const attemptsPagesActivityOptions = {
  retry: jobBankRetry,
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '1 minute',
} as const;

import { continueAsNew, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { backgroundPriority } from '../../contract/temporal.js';
import { bankReadOptions } from '../activity-options.js';
import { attemptsPageOptions, defaultPagesPerSliceRun } from './settings.js';
import {
  deliveryKey,
  type AttemptsSliceInput,
  type AttemptsSliceResult,
  type SyncedAttempt,
} from '../../contract/attempts-sync.js';
import { addCounted, emptySummary } from './attempts-summary.js';

/**
 * One bank call per activity on the worker's task queue, so Temporal's queue rate limit paces every page. A
 * bank read's short start-to-close also bounds the wait for a task a stopping worker lost in transit
 * (decisions.md).
 */
const { fetchAttemptsSlicePage } = proxyActivities<Pick<Activities, 'fetchAttemptsSlicePage'>>({
  ...bankReadOptions,
  priority: backgroundPriority.bulkPage,
});
/** Signalling calls Temporal, not the bank: a local activity, outside the bank's rate limit. */
const { deliverSyncedAttempts } =
  proxyLocalActivities<Pick<Activities, 'deliverSyncedAttempts'>>(attemptsPageOptions);

/**
 * Pages one time slice of an attempts sync, `pagesPerRun` pages a run, and signals each recurrence once a run
 * with that run's attempts. The pages' records sit in the run's history until they are signalled (the next
 * page's cursor is workflow state, as in the serial sync): a worker that dies mid-run replays them from there
 * and signals them again, which the recurrences take as duplicates. Each run leaves its recurrences in the
 * report sink under the sync's `deliveries` prefix, and the run then continues as new with counts only.
 */
export async function syncAttemptsSlice(input: AttemptsSliceInput): Promise<AttemptsSliceResult> {
  const pagesPerRun = input.pagesPerRun ?? defaultPagesPerSliceRun;
  const summary = input.resume?.summary ?? emptySummary(input.from, input.to);
  summary.runs++;
  let cursor = input.resume?.cursor;
  const fetched: SyncedAttempt[] = [];
  let pages = 0;
  do {
    const page = await fetchAttemptsSlicePage({
      from_datetime: input.from,
      to_datetime: input.to,
      ...(input.pageSize ? { limit: input.pageSize } : {}),
      ...(cursor ? { after: cursor } : {}),
    });
    fetched.push(...page.attempts);
    pages++;
    cursor = page.next ?? undefined;
  } while (cursor && pages < pagesPerRun && !workflowInfo().continueAsNewSuggested);

  const record = {
    prefix: input.deliveries,
    key: deliveryKey(summary.pages, `slice-${input.from}_${input.to}`),
  };
  addCounted(summary, await deliverSyncedAttempts({ attempts: fetched, pages, record }));
  if (cursor) await continueAsNew<typeof syncAttemptsSlice>({ ...input, resume: { cursor, summary } });
  return { summary };
}

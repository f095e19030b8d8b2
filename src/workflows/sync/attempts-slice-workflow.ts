import { continueAsNew, proxyActivities, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { backgroundPriority } from '../../contract/task-queues.js';
import { bankReadOptions } from '../activity-options.js';
import { attemptsPageOptions, defaultPagesPerSliceRun } from './settings.js';
import {
  deliveryKey,
  type AttemptsDelivery,
  type AttemptsSliceInput,
  type AttemptsSliceResult,
  type CountedDelivery,
  type SyncedAttempt,
} from '../../contract/attempts-sync.js';
import { addCounted, addPage, emptySummary } from './attempts-summary.js';

/**
 * One bank call per activity on the worker's task queue, so Temporal's queue rate limit paces every page. A bank
 * read's short start-to-close also bounds the wait for a task a stopping worker lost in transit (decisions.md).
 */
const { fetchAttemptsSlicePage } = proxyActivities<Pick<Activities, 'fetchAttemptsSlicePage'>>({
  ...bankReadOptions,
  priority: backgroundPriority.bulkPage,
});
/** Signalling calls Temporal, not the bank: a local activity, outside the bank's rate limit. */
const { deliverSyncedAttempts } =
  proxyLocalActivities<Pick<Activities, 'deliverSyncedAttempts'>>(attemptsPageOptions);

/**
 * Pages one time slice of an attempts sync, `pagesPerRun` pages a run, and signals each recurrence once a run with
 * that run's attempts. The pages' records sit in the run's history until they are signalled (the next page's
 * cursor is workflow state, as in the serial sync): a worker that dies mid-run replays them from there and
 * signals them again, which the recurrences take as duplicates; the run then continues as new with counts only.
 * A slice given the sync's `deliveries` prefix leaves each run's recurrences in the report sink and carries only
 * counts; one started before attemptsSyncBoundedPatch carries their external ids.
 */
export async function syncAttemptsSlice(input: AttemptsSliceInput): Promise<AttemptsSliceResult> {
  const pagesPerRun = input.pagesPerRun ?? defaultPagesPerSliceRun;
  const summary = input.resume?.summary ?? emptySummary(input.from, input.to);
  summary.runs++;
  const updated = new Set(input.resume?.updatedRecurrences ?? []);
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

  if (input.deliveries) {
    const record = {
      prefix: input.deliveries,
      key: deliveryKey(summary.pages, `slice-${input.from}_${input.to}`),
    };
    addCounted(
      summary,
      (await deliverSyncedAttempts({ attempts: fetched, pages, record })) as CountedDelivery,
    );
    if (cursor) await continueAsNew<typeof syncAttemptsSlice>({ ...input, resume: { cursor, summary } });
    return { summary };
  }
  addPage(summary, (await deliverSyncedAttempts({ attempts: fetched, pages })) as AttemptsDelivery, updated);
  if (cursor) {
    await continueAsNew<typeof syncAttemptsSlice>({
      ...input,
      resume: { cursor, summary, updatedRecurrences: [...updated] },
    });
  }
  return { summary, updatedRecurrences: [...updated] };
}

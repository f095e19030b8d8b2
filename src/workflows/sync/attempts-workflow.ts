import {
  continueAsNew,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { jobIds } from '../jobs/definitions.js';
import { searchAttributes } from '../search-attributes.js';
import { completeJobWindow, resolveJobWindow } from '../shared/schedule-window.js';
import {
  attemptsPageOptions,
  defaultPagesPerRun,
  pagesPerBatch,
  pagesBeforeLongRuns,
  type AttemptsPageQuery,
  type AttemptsPageResult,
  type AttemptsSyncInput,
  type AttemptsSyncSummary,
} from './attempts-definitions.js';
import { planSlices, syncInSlices } from './attempts-slices.js';
import { addPage, emptySummary } from './attempts-summary.js';
import { jobStatuses } from '../job-statuses.js';

const queued = proxyActivities<Pick<Activities, 'syncAttemptsPage'>>(attemptsPageOptions);

/**
 * Pages as local activities: they run in the worker that runs the workflow, with no trip through a task queue
 * and no workflow task of their own, so consecutive calls run inside one workflow task and cost one history event
 * each. A page took about 100 ms as a queued activity against 12 ms paging directly, most of it round trips
 * through Temporal (docs/performance.md). Each result reaches history (a marker) when the workflow task
 * completes, and the workflow's current details show it then; a worker that dies mid-task repeats the pages since
 * the last completed workflow task, which the recurrences take as duplicates, as they do a retried call.
 */
const local =
  proxyLocalActivities<Pick<Activities, 'syncAttemptsPage' | 'syncAttemptsPages' | 'attemptsSyncPlan'>>(
    attemptsPageOptions,
  );
const localPagesPatch = 'attempts-sync-local-pages';

/**
 * With a fleet-wide bank rate limit, a new run pages its window in time slices at once, each page a queued
 * activity the limit paces (attempts-slices.ts); local activities would bypass the limit. Without one it pages
 * serially with local activities, as runs started before did.
 */
const slicesPatch = 'attempts-sync-parallel-slices';

/**
 * Pages in batches of up to `pagesPerBatch`, each recurrence signalled once per batch: signalling every
 * recurrence on every page woke each recurrence workflow once a page, and those workflow tasks were most of a
 * page's cost (docs/performance.md). Runs started before keep one page per call.
 */
const pageBatchesPatch = 'attempts-sync-page-batches';

/**
 * Runs of `defaultPagesPerRun` pages in batches of `pagesPerBatch`; runs started before keep continuing as new
 * every 20 pages, in batches of 20.
 */
const longRunsPatch = 'attempts-sync-long-runs';

/** Fetches and delivers the pages from `query`'s cursor, at most `room` of them. */
type PageFetch = (query: AttemptsPageQuery, room: number) => Promise<AttemptsPageResult>;

function pageFetch(batchPages: number): PageFetch {
  if (patched(pageBatchesPatch)) {
    return (query, room) => local.syncAttemptsPages({ query, maxPages: Math.min(room, batchPages) });
  }
  const { syncAttemptsPage } = patched(localPagesPatch) ? local : queued;
  return (query) => syncAttemptsPage(query);
}

/**
 * Pages the window from the cursor in `progress`, a batch of pages per local activity, continuing as new every
 * `pagesPerRun` pages with the cursor and the running summary.
 */
async function pageSerially(
  input: AttemptsSyncInput,
  window: { from: string; to: string },
  summary: AttemptsSyncSummary,
  progress: { cursor: string | undefined },
  publish: () => void,
): Promise<void> {
  const longRuns = patched(longRunsPatch);
  const pagesPerRun = input.pagesPerRun ?? (longRuns ? defaultPagesPerRun : pagesBeforeLongRuns);
  const updated = new Set(input.resume?.updatedRecurrences ?? []);
  const fetchPages = pageFetch(longRuns ? pagesPerBatch : pagesBeforeLongRuns);
  for (let pagesThisRun = 0; ;) {
    const { cursor } = progress;
    if (cursor && (pagesThisRun >= pagesPerRun || workflowInfo().continueAsNewSuggested)) {
      await continueAsNew<typeof syncRecurrenceAttempts>({
        ...input,
        ...window,
        resume: { cursor, summary, updatedRecurrences: [...updated] },
      });
    }
    const page = await fetchPages(
      {
        from_datetime: window.from,
        to_datetime: window.to,
        ...(input.pageSize ? { limit: input.pageSize } : {}),
        ...(cursor ? { after: cursor } : {}),
      },
      pagesPerRun - pagesThisRun,
    );
    pagesThisRun += page.pages ?? 1;
    addPage(summary, page, updated);
    progress.cursor = page.next ?? undefined;
    publish();
    if (!progress.cursor) return;
  }
}

/**
 * Lists the collection attempts of a window [from, to) (started by a Schedule: the time since its schedule's last
 * completed window) in batches of pages, one activity per batch that fetches its pages and signals each recurrence
 * workflow its attempts, and returns a summary. The cursor is workflow state, so a crash or a bank outage resumes
 * from the last page in history; every `pagesPerRun` pages the run continues as new with the cursor and the running
 * summary, so the history stays the same size whatever the volume.
 */
export async function syncRecurrenceAttempts(input: AttemptsSyncInput = {}): Promise<AttemptsSyncSummary> {
  const window = await resolveJobWindow(input);
  const summary = input.resume?.summary ?? emptySummary(window.from, window.to);
  summary.runs++;
  const progress = { cursor: input.resume?.cursor, done: false };

  const publish = () =>
    setCurrentDetails(
      [
        `**Attempts sync** ${window.from} to ${window.to} — **${progress.done ? jobStatuses.completed : jobStatuses.running}**`,
        `Pages: ${summary.pages}; attempts: ${summary.attempts} (${Object.entries(summary.byStatus)
          .map(([status, count]) => `${count} ${status}`)
          .join(', ')})`,
        `Recurrences updated: ${summary.recurrencesUpdated}; unknown recurrences: ${summary.unknownRecurrences.length} (${summary.unknownAttempts} attempts)`,
        `Run ${summary.runs}${progress.cursor ? `, next cursor ${progress.cursor}` : ''}`,
      ].join('\n\n'),
    );
  if (!input.resume) {
    upsertSearchAttributes([
      { key: searchAttributes.kind, value: jobIds.attemptsSync },
      { key: searchAttributes.status, value: jobStatuses.running },
    ]);
  }
  publish();

  const rateLimit =
    !input.resume && patched(slicesPatch) ? (await local.attemptsSyncPlan()).bankRequestsPerSecond : null;
  if (rateLimit) await syncInSlices(window, input, planSlices(window, rateLimit), summary, publish);
  else await pageSerially(input, window, summary, progress, publish);

  progress.done = true;
  upsertSearchAttributes([{ key: searchAttributes.status, value: jobStatuses.completed }]);
  publish();
  if (await completeJobWindow(window)) {
    await continueAsNew<typeof syncRecurrenceAttempts>({
      pageSize: input.pageSize,
      pagesPerRun: input.pagesPerRun,
    });
  }
  return summary;
}

import {
  continueAsNew,
  proxyActivities,
  proxyLocalActivities,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { jobIds, jobStatuses } from '../../contract/jobs.js';
import { searchAttributes, backgroundPriority } from '../../contract/temporal.js';
import { completeJobWindow, resolveJobWindow } from '../shared/schedule-window.js';
import { internalActivities, temporalCallOptions } from '../activity-options.js';
import {
  attemptsPageOptions,
  attemptsPagesActivityOptions,
  defaultPagesPerRun,
  pagesPerBatch,
} from './settings.js';
import {
  attemptsSyncRecordsPrefix,
  type AttemptsPageQuery,
  type AttemptsSyncInput,
  type AttemptsSyncSummary,
} from '../../contract/attempts-sync.js';
import { planSlices, syncInSlices } from './attempts-slices.js';
import { addCounted, emptySummary } from './attempts-summary.js';

/** Pages of a serial sync: a queued activity that heartbeats its cursor (settings.ts). */
const { deliverAttemptsPages } = proxyActivities<Pick<Activities, 'deliverAttemptsPages'>>({
  ...attemptsPagesActivityOptions,
  priority: backgroundPriority.bulkPage,
});
/** Reads and writes the report sink, no bank call. */
const { summarizeAttemptsSyncRecurrences } =
  internalActivities<Pick<Activities, 'summarizeAttemptsSyncRecurrences'>>(temporalCallOptions);

/** Whether the sync runs in slices: the fleet's bank rate limit, read from the worker's configuration. */
const { attemptsSyncPlan } = proxyLocalActivities<Pick<Activities, 'attemptsSyncPlan'>>(attemptsPageOptions);

type Window = { from: string; to: string };

const pageQuery = (
  input: AttemptsSyncInput,
  window: Window,
  cursor: string | undefined,
): AttemptsPageQuery => ({
  from_datetime: window.from,
  to_datetime: window.to,
  ...(input.pageSize ? { limit: input.pageSize } : {}),
  ...(cursor ? { after: cursor } : {}),
});

/**
 * Pages the window from the cursor in `progress`, up to `pagesPerBatch` pages per queued activity
 * (`deliverAttemptsPages`), which signals each recurrence once a delivery of pages and leaves the delivery's
 * recurrences in the report sink under `records`; only counts come back. Continues as new every `pagesPerRun`
 * pages with the cursor and the running summary, so neither the history nor any payload grows with the
 * window.
 */
async function pageSerially(
  input: AttemptsSyncInput,
  window: Window,
  summary: AttemptsSyncSummary,
  progress: { cursor: string | undefined },
  publish: () => void,
  records: string,
): Promise<void> {
  const pagesPerRun = input.pagesPerRun ?? defaultPagesPerRun;
  for (let pagesThisRun = 0; ;) {
    const { cursor } = progress;
    if (cursor && (pagesThisRun >= pagesPerRun || workflowInfo().continueAsNewSuggested)) {
      await continueAsNew<typeof syncRecurrenceAttempts>({
        ...input,
        ...window,
        resume: { cursor, summary },
      });
    }
    const page = await deliverAttemptsPages({
      query: pageQuery(input, window, cursor),
      maxPages: Math.min(pagesPerRun - pagesThisRun, pagesPerBatch),
      prefix: records,
      firstPage: summary.pages,
    });
    pagesThisRun += page.pages;
    addCounted(summary, page);
    progress.cursor = page.next ?? undefined;
    publish();
    if (!progress.cursor) return;
  }
}

/**
 * Lists the collection attempts of a window [from, to) (started by a Schedule: the time since its schedule's
 * last completed window) in batches of pages, one activity per batch that fetches its pages and signals each
 * recurrence workflow its attempts, and returns a summary. The cursor is workflow state, so a crash or a bank
 * outage resumes from the last page in history; every `pagesPerRun` pages the run continues as new with the
 * cursor and the running summary, so the history stays the same size whatever the volume. The recurrences
 * each delivery signalled or found unknown go to the report sink; the last step counts them once each and
 * lists the unknown ones there, the summary keeping a sample of them.
 */
export async function syncRecurrenceAttempts(input: AttemptsSyncInput = {}): Promise<AttemptsSyncSummary> {
  const resolved = await resolveJobWindow(input);
  const { window } = resolved;
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
        `Recurrences updated: ${summary.recurrencesUpdated}; unknown recurrences: ${summary.unknownRecurrenceCount ?? summary.unknownRecurrences.length} (${summary.unknownAttempts} attempts)`,
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

  // With a fleet-wide bank rate limit the window is paged in time slices at once, each page a queued activity
  // the limit paces (attempts-slices.ts): local activities would bypass it. A continued run is always a
  // serial one.
  const rateLimit = input.resume ? null : (await attemptsSyncPlan()).bankRequestsPerSecond;
  const records = attemptsSyncRecordsPrefix(workflowInfo().firstExecutionRunId, window);
  const serialInput = { ...input, coveredUntil: resolved.coveredUntil };
  if (rateLimit) await syncInSlices(window, input, planSlices(window, rateLimit), summary, publish, records);
  else await pageSerially(serialInput, window, summary, progress, publish, records);
  Object.assign(summary, await summarizeAttemptsSyncRecurrences(records));

  progress.done = true;
  upsertSearchAttributes([{ key: searchAttributes.status, value: jobStatuses.completed }]);
  publish();
  const completion = completeJobWindow(resolved);
  if (completion.next) {
    await continueAsNew<typeof syncRecurrenceAttempts>({
      pageSize: input.pageSize,
      pagesPerRun: input.pagesPerRun,
      ...completion.next,
    });
  }
  return { ...summary, coveredUntil: completion.coveredUntil };
}

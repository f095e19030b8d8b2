import {
  proxyActivities,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
  type ActivityOptions,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { centsToReais, emptyTotals, mergeTotals } from '../../reports/totals.js';
import { backgroundPriority, searchAttributes } from '../../contract/temporal.js';
import { bankCallOptions, internalActivities, outageRetry } from '../activity-options.js';
import { completeJobWindow, resolveJobWindow } from '../shared/schedule-window.js';
import {
  type JobWindowInput,
  type ListReportJob,
  type ReportProgress,
  type ReportSummary,
  jobStatuses,
} from '../../contract/jobs.js';

const { collectReportPage } = proxyActivities<Pick<Activities, 'collectReportPage'>>({
  ...bankCallOptions,
  priority: backgroundPriority.bulkPage,
});

/** Writing to the report sink (disk or bucket): retried with backoff while it is full or unreachable. */
const sinkWriteOptions: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  retry: outageRetry,
};
const { discardReportStaging } =
  internalActivities<Pick<Activities, 'discardReportStaging'>>(sinkWriteOptions);
/**
 * The writer heartbeats after every staged page it reads: a worker that dies mid-report is noticed within the
 * heartbeat timeout, and another worker (reaching the same sink) writes the report again from the start.
 */
const { writeListReport } = internalActivities<Pick<Activities, 'writeListReport'>>({
  ...sinkWriteOptions,
  heartbeatTimeout: '30 seconds',
});

/**
 * Pages fetched per workflow run before continuing as new. A page costs six history events (its activity and
 * the workflow task that follows), so a run stays near 160 events however many records the window holds.
 */
export const reportPagesPerRun = 25;

const titles: Record<ListReportJob, string> = {
  'refund-report': 'Receivable refunds report',
  'transfer-report': 'Cash-out transfers report',
};

function publish(job: ListReportJob, progress: ReportProgress, phase: string): void {
  setCurrentDetails(
    [
      `**${titles[job]}** — ${phase}`,
      `Window [${progress.window.from}, ${progress.window.to})`,
      `${progress.totals.count} records in ${progress.pages} pages so far, R$ ${centsToReais(progress.totals.amountCents)} (run ${progress.runs})`,
    ].join('\n\n'),
  );
}

/**
 * A list report over a window: one activity per page, each staging its records in the sink and answering only
 * its totals and the next cursor; every `reportPagesPerRun` pages the workflow continues as new with the
 * cursor and the running totals. Then the writer builds the JSON and CSV files from the staged pages. A
 * scheduled run still catching up continues as new without progress once its window is written, to report the
 * next window.
 */
export async function runListReport(
  job: ListReportJob,
  input: JobWindowInput | undefined,
  carried: ReportProgress | undefined,
  continueWith: (progress?: ReportProgress, input?: JobWindowInput) => Promise<never>,
): Promise<ReportSummary> {
  const progress: ReportProgress = carried
    ? { ...carried, runs: carried.runs + 1 }
    : {
        ...(await resolveJobWindow(input)),
        stagingKey: `${job}-${workflowInfo().firstExecutionRunId}`,
        pages: 0,
        after: null,
        totals: emptyTotals(),
        runs: 1,
      };
  upsertSearchAttributes([
    { key: searchAttributes.kind, value: job },
    { key: searchAttributes.status, value: jobStatuses.listing },
  ]);
  publish(job, progress, jobStatuses.listing);

  for (let pagesThisRun = 0; ; pagesThisRun++) {
    if (pagesThisRun >= reportPagesPerRun || workflowInfo().continueAsNewSuggested) {
      await continueWith(progress);
    }
    const page = await collectReportPage({
      job,
      window: progress.window,
      after: progress.after,
      page: progress.pages,
      stagingKey: progress.stagingKey,
    });
    progress.pages++;
    progress.totals = mergeTotals(progress.totals, page.totals);
    progress.after = page.after;
    publish(job, progress, jobStatuses.listing);
    if (page.after === null) break;
  }

  publish(job, progress, 'writing the files');
  const written = await writeListReport({
    job,
    window: progress.window,
    stagingKey: progress.stagingKey,
    pages: progress.pages,
  });
  await discardReportStaging(progress.stagingKey);
  upsertSearchAttributes([{ key: searchAttributes.status, value: jobStatuses.completed }]);
  publish(job, progress, `written to ${written.files.json}`);
  const completion = completeJobWindow(progress);
  if (completion.next) await continueWith(undefined, completion.next);
  return {
    job,
    window: progress.window,
    pages: progress.pages,
    runs: progress.runs,
    ...written,
    coveredUntil: completion.coveredUntil,
  };
}

import { continueAsNew } from '@temporalio/workflow';
import { type JobWindowInput, jobIds, type ReportProgress, type ReportSummary } from '../../contract/jobs.js';
import { runListReport } from './list-report.js';

/**
 * The receivable refunds of a window as JSON and CSV files in REPORTS_DIR, with totals by status. Input is
 * `{from, to}`; a Schedule starts it with none and it covers the time since the last completed window of its
 * schedule. `progress` is internal: what a continued run carries over.
 */
export async function refundReport(
  input?: JobWindowInput,
  progress?: ReportProgress,
): Promise<ReportSummary> {
  return runListReport(jobIds.refundReport, input, progress, (next, nextInput = input) =>
    continueAsNew<typeof refundReport>(nextInput, next),
  );
}

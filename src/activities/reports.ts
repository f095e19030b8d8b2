import { rm } from 'node:fs/promises';
import { ApplicationFailure } from '@temporalio/common';
import type { BankClient } from '../bank/client.js';
import { BankInvalidResponseError } from '../bank/errors.js';
import { stagedPageFile, stagingDir, writeTextAtomically } from '../reports/files.js';
import { writeListReport } from '../reports/list-report-writer.js';
import { listReports } from '../reports/list-reports.js';
import { fileSnapshotSink, type MetricsSnapshotSink } from '../reports/metrics-sink.js';
import { addToTotals, emptyTotals } from '../reports/totals.js';
import type {
  MetricsSnapshot,
  ReportPageRequest,
  ReportPageResult,
  WriteReportRequest,
} from '../contract/jobs.js';
import { bankActivity } from './failures.js';

/** Report amounts are summed in one currency; the bank's money is in BRL. */
const reportCurrency = 'BRL';

export interface ReportActivityDeps {
  bank: BankClient;
  reportsDir: string;
  metricsBankAccountIds: string[];
  /** Where metrics snapshots go; JSON files in `reportsDir` by default. */
  metricsSink?: MetricsSnapshotSink;
}

/**
 * The scheduled jobs' activities. A list report's records never travel through workflow history: each page
 * activity stages its records on disk and answers only the page's totals and the next cursor, and the writer
 * builds the files from the staged pages.
 */
export function createReportActivities(deps: ReportActivityDeps) {
  const sink = deps.metricsSink ?? fileSnapshotSink(deps.reportsDir);
  return {
    collectReportPage: bankActivity(async (request: ReportPageRequest): Promise<ReportPageResult> => {
      const report = listReports[request.job];
      const page = await report.fetchPage(deps.bank, request.window, request.after);
      const { has_next: hasNext, after } = page.metadata;
      if (hasNext && (!after || after === request.after)) {
        throw new BankInvalidResponseError(
          `metadata.has_next is true but metadata.after ${after ? 'repeats the cursor just used' : 'is null'}`,
          { ...report.endpoint, method: 'GET', requestId: 'none' },
        );
      }
      let totals = emptyTotals();
      for (const record of page.data) {
        if (record.amount.currency !== reportCurrency) {
          throw ApplicationFailure.create({
            type: 'ReportCurrencyMismatch',
            nonRetryable: true,
            message: `${report.recordsKey} record ${record.id} is in ${record.amount.currency}; reports sum ${reportCurrency} only`,
          });
        }
        totals = addToTotals(totals, record.status, record.amount.amount);
      }
      const file = stagedPageFile(stagingDir(deps.reportsDir, request.stagingKey), request.page);
      await writeTextAtomically(file, page.data.map((record) => `${JSON.stringify(record)}\n`).join(''));
      return { totals, after: hasNext ? after : null };
    }),

    writeListReport: (request: WriteReportRequest) => writeListReport(deps.reportsDir, request, new Date()),

    discardReportStaging: (stagingKey: string) =>
      rm(stagingDir(deps.reportsDir, stagingKey), { recursive: true, force: true }),

    /** The worker's METRICS_BANK_ACCOUNT_IDS, read through an activity so the workflow stays deterministic. */
    metricsAccounts: async (): Promise<string[]> => deps.metricsBankAccountIds,

    storeMetricsSnapshot: async (snapshot: MetricsSnapshot): Promise<{ file: string }> => ({
      file: await sink.store(snapshot, new Date()),
    }),
  };
}

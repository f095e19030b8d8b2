import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { BankClient } from '../bank/client.js';
import { BankInvalidResponseError } from '../bank/errors.js';
import { stagedPageKey, stagingPrefix } from '../reports/files.js';
import { writeListReport } from '../reports/list-report-writer.js';
import { listReports } from '../reports/list-reports.js';
import { storeMetricsSnapshot } from '../reports/metrics-sink.js';
import { reportSinkFor } from '../reports/sink/index.js';
import type { JobsConfig } from '../config/jobs.js';
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

export interface ReportActivityDeps extends JobsConfig {
  bank: BankClient;
}

/**
 * The scheduled jobs' activities. A list report's records never travel through workflow history: each page
 * activity stages its records in the report sink, which every worker reaches, and answers only the page's
 * totals and the next cursor; the writer, on whichever worker, builds the files from the staged pages.
 */
export function createReportActivities(deps: ReportActivityDeps) {
  const sink = reportSinkFor(deps);
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
      await sink.put(
        stagedPageKey(request.stagingKey, request.page),
        page.data.map((record) => `${JSON.stringify(record)}\n`).join(''),
      );
      return { totals, after: hasNext ? after : null };
    }),

    writeListReport: (request: WriteReportRequest) =>
      writeListReport({ sink, heartbeat: () => Context.current().heartbeat() }, request, new Date()),

    discardReportStaging: (stagingKey: string) => sink.deletePrefix(stagingPrefix(stagingKey)),

    /**
     * The worker's METRICS_BANK_ACCOUNT_IDS, read through an activity so the workflow stays deterministic.
     */
    metricsAccounts: async (): Promise<string[]> => deps.metricsBankAccountIds,

    storeMetricsSnapshot: async (snapshot: MetricsSnapshot): Promise<{ file: string }> => ({
      file: await storeMetricsSnapshot(sink, snapshot, new Date()),
    }),
  };
}

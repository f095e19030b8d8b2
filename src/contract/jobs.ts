import type { Metrics } from '../bank/schemas/metrics.js';
import type { Totals, TotalsInFile } from '../reports/totals.js';

/** The scheduled jobs, by the id their schedule, search attribute (BankflowKind) and files carry. */
export const jobIds = {
  attemptsSync: 'attempts-sync',
  refundReport: 'refund-report',
  transferReport: 'transfer-report',
  metricsSnapshot: 'metrics-snapshot',
} as const;
export type JobId = (typeof jobIds)[keyof typeof jobIds];

/** The workflow type each job's schedule starts, as the worker registers it. */
export const jobWorkflowTypes = {
  [jobIds.attemptsSync]: 'syncRecurrenceAttempts',
  [jobIds.refundReport]: 'refundReport',
  [jobIds.transferReport]: 'transferReport',
  [jobIds.metricsSnapshot]: 'metricsSnapshot',
} as const satisfies Record<JobId, string>;

/**
 * BankflowStatus of the scheduled jobs' and the attempts sync's workflows; docs/support.md says what each
 * means.
 */
export const jobStatuses = {
  running: 'running',
  listing: 'listing',
  completed: 'completed',
  stored: 'stored',
  nothingToDo: 'nothing_to_do',
} as const;

/**
 * A scheduled job's input: an explicit window, or nothing when a Schedule starts it. A run a Schedule started
 * without input covers the time from where its schedule's last completed window ended to its own scheduled
 * time.
 */
export interface JobWindowInput {
  from?: string;
  to?: string;
  /**
   * Set by a scheduled run that continues as new: where its schedule's covered time ended before its window
   * (Temporal hands the last completed run's result to the first run of a chain only).
   */
  coveredUntil?: string;
}

/**
 * What every scheduled job answers besides its own result: where its schedule's covered time ends once it
 * completed, which Temporal hands the schedule's next run as its last completion result. Absent on a run that
 * was not started by a Schedule.
 */
export interface ScheduleCoverage {
  coveredUntil?: string;
}

/** The half-open window [from, to) a job covers, as UTC ISO 8601 instants. */
export interface JobWindow {
  from: string;
  to: string;
}
export type ListReportJob = typeof jobIds.refundReport | typeof jobIds.transferReport;

/** One page of a list report: fetched by one activity, staged on disk, only its totals come back. */
export interface ReportPageRequest {
  job: ListReportJob;
  window: JobWindow;
  /** The cursor of this page; null for the first one. */
  after: string | null;
  /** 0-based page number, across continue-as-new. */
  page: number;
  stagingKey: string;
}

export interface ReportPageResult {
  totals: Totals;
  /** The next page's cursor; null on the last page. */
  after: string | null;
}

export interface WriteReportRequest {
  job: ListReportJob;
  window: JobWindow;
  stagingKey: string;
  pages: number;
}

export interface ReportFiles {
  json: string;
  csv: string;
  totalsCsv: string;
}

export interface WrittenReport {
  totals: TotalsInFile;
  files: ReportFiles;
}

/**
 * What a list report workflow returns: the window, totals by status (cents and reais), where the files are.
 */
export interface ReportSummary extends WrittenReport, ScheduleCoverage {
  job: ListReportJob;
  window: JobWindow;
  pages: number;
  /** Workflow runs the report took (continue-as-new keeps each run's history short). */
  runs: number;
}

/** Carried across continue-as-new: where the paging stands and what it counted so far. */
export interface ReportProgress {
  window: JobWindow;
  /** A scheduled run's: where its schedule's covered time ended before `window`. */
  coveredUntil?: string;
  stagingKey: string;
  pages: number;
  after: string | null;
  totals: Totals;
  runs: number;
}

export interface AccountMetrics {
  bankAccountId: string;
  /** Cents settled and failed in the window; null when the bank refused this account. */
  metrics: Metrics | null;
  error: string | null;
}

/** What a metrics snapshot file holds. */
export interface MetricsSnapshot {
  job: typeof jobIds.metricsSnapshot;
  window: JobWindow;
  runId: string;
  accounts: AccountMetrics[];
}

export interface MetricsSnapshotResult extends ScheduleCoverage {
  job: typeof jobIds.metricsSnapshot;
  window: JobWindow;
  status: typeof jobStatuses.stored | typeof jobStatuses.nothingToDo;
  message: string;
  accounts: AccountMetrics[];
  /** The snapshot file; null when there was nothing to do. */
  file: string | null;
}

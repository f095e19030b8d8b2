import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { SchedulesConfig } from '../config.js';
import { jobIds, jobWorkflowTypes, type JobId } from '../contract/jobs.js';

/** One Temporal Schedule, as code: what runs, when, and how missed or overlapping runs are handled. */
export interface ScheduleDeclaration {
  job: JobId;
  scheduleId: string;
  /**
   * The workflow type the schedule starts, with no arguments: the run's window starts where the last
   * completed one ended.
   */
  workflowType: string;
  cron: string;
  /** The environment variable that sets `cron`, named in errors. */
  cronVariable: string;
  timeZone: string;
  /** A run still going when the next is due makes the next one skip. */
  overlap: typeof ScheduleOverlapPolicy.SKIP;
  /** How late a run missed while Temporal was unavailable may still start. */
  catchupWindow: string;
  /** Static summary of every run, shown in the Temporal UI. */
  summary: string;
}

/**
 * Every schedule bankflow runs, in one place. Cadences come from SCHEDULE_*_CRON in SCHEDULE_TIME_ZONE; ids
 * are `<SCHEDULE_ID_PREFIX><job>`. Each starts its job's workflow type (`jobWorkflowTypes`).
 */
export function scheduleDeclarations(config: SchedulesConfig): ScheduleDeclaration[] {
  const declare = (
    job: JobId,
    cron: string,
    cronVariable: string,
    catchupWindow: string,
    summary: string,
  ): ScheduleDeclaration => ({
    job,
    scheduleId: `${config.idPrefix}${job}`,
    workflowType: jobWorkflowTypes[job],
    cron,
    cronVariable,
    timeZone: config.timeZone,
    overlap: ScheduleOverlapPolicy.SKIP,
    catchupWindow,
    summary,
  });
  return [
    declare(
      jobIds.attemptsSync,
      config.cron.attemptsSync,
      'SCHEDULE_ATTEMPTS_SYNC_CRON',
      '1 hour',
      'Sync recurrence collection attempts since the last completed window',
    ),
    declare(
      jobIds.refundReport,
      config.cron.reports,
      'SCHEDULE_REPORTS_CRON',
      '1 day',
      'Receivable refunds report (JSON and CSV) since the last completed window',
    ),
    declare(
      jobIds.transferReport,
      config.cron.reports,
      'SCHEDULE_REPORTS_CRON',
      '1 day',
      'Cash-out transfers report (JSON and CSV) since the last completed window',
    ),
    declare(
      jobIds.metricsSnapshot,
      config.cron.metrics,
      'SCHEDULE_METRICS_CRON',
      '1 day',
      'Account metrics snapshot of METRICS_BANK_ACCOUNT_IDS since the last completed window',
    ),
  ];
}

/**
 * The declaration a command names, by job id (`refund-report`) or by schedule id (`bankflow-refund-report`).
 */
export function findDeclaration(
  declarations: readonly ScheduleDeclaration[],
  id: string,
): ScheduleDeclaration | undefined {
  return declarations.find((declaration) => declaration.job === id || declaration.scheduleId === id);
}

/** The id Temporal gives a scheduled run: the action's workflow id (the schedule id) and its nominal time. */
export function scheduledWorkflowId(scheduleId: string, at: Date): string {
  return `${scheduleId}-${at.toISOString().replace(/\.\d{3}Z$/, 'Z')}`;
}

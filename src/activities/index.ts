import type { Client } from '@temporalio/client';
import type { BankClient } from '../bank/client.js';
import type { NotificationsConfig } from '../config/notifications.js';
import { reportSinkFor } from '../reports/sink/index.js';
import { createAttemptsSyncActivities } from './attempts-sync.js';
import { createBankCallActivities } from './bank-calls.js';
import { createNotificationActivities } from './notifications.js';
import { createReportActivities, type ReportActivityDeps } from './reports.js';
import { createScheduleActivities } from './schedules.js';
import { createCashInClaimActivities } from './cash-in-claims.js';

export interface ActivityDeps {
  bank: BankClient;
  /** The fleet's bank calls per second (BANK_RATE_LIMIT_PER_SECOND); unset for no limit. */
  bankRequestsPerSecond?: number;
  /** Scheduled jobs: where reports go (the directory or the S3 store) and the metrics accounts. */
  jobs: Omit<ReportActivityDeps, 'bank'>;
  /**
   * A client on the worker's own connection, for what workflows ask of Temporal (schedule times, unmatched
   * events).
   */
  temporal: Client;
  /** The workflows' task queue, where activities that start workflows start them. */
  taskQueue: string;
  /** The merchant's notification endpoints and signing secrets; none configured sends nothing. */
  notifications?: NotificationsConfig;
  /**
   * Aborted once the worker begins to stop: an activity that loops finishes the call in flight and ends
   * there, handing back how far it got, instead of starting calls its grace time may cut.
   */
  stopping?: AbortSignal;
}

/** Every activity the worker registers, bound to its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createBankCallActivities(deps.bank),
    ...createAttemptsSyncActivities(
      deps.bank,
      deps.bankRequestsPerSecond,
      reportSinkFor(deps.jobs),
      deps.stopping,
    ),
    ...createReportActivities({ ...deps.jobs, bank: deps.bank }),
    ...createScheduleActivities(deps.temporal),
    ...createCashInClaimActivities(deps.temporal, deps.taskQueue),
    ...createNotificationActivities(
      deps.temporal,
      deps.taskQueue,
      deps.notifications ?? { endpoints: [], secrets: [] },
    ),
  };
}

export type Activities = ReturnType<typeof createActivities>;

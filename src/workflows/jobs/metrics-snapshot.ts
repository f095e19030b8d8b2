import {
  continueAsNew,
  proxyActivities,
  setCurrentDetails,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { backgroundPriority, searchAttributes } from '../../contract/temporal.js';
import { bankCallOptions, internalActivities, outageRetry } from '../activity-options.js';
import { bankRefusal } from '../shared/follow-bank.js';
import { completeJobWindow, resolveJobWindow, type ResolvedWindow } from '../shared/schedule-window.js';
import {
  type JobWindowInput,
  jobIds,
  type AccountMetrics,
  type MetricsSnapshotResult,
  jobStatuses,
} from '../../contract/jobs.js';

const bank = {
  getMetrics: proxyActivities<Pick<Activities, 'getMetrics'>>({
    ...bankCallOptions,
    priority: backgroundPriority.bulkPage,
  }).getMetrics,
  /** The worker's configuration, no bank call. */
  metricsAccounts: internalActivities<Pick<Activities, 'metricsAccounts'>>(bankCallOptions).metricsAccounts,
};
const { storeMetricsSnapshot } = internalActivities<Pick<Activities, 'storeMetricsSnapshot'>>({
  startToCloseTimeout: '1 minute',
  retry: outageRetry,
});

/** Answers the bank gives for one account that must not cost the other accounts their snapshot. */
const accountRefusals = ['BankNotFound', 'BankValidation'];

/**
 * Publishes the outcome; a scheduled run still catching up then continues as new to snapshot the next window.
 */
async function finish(
  result: MetricsSnapshotResult,
  resolved: ResolvedWindow,
): Promise<MetricsSnapshotResult> {
  upsertSearchAttributes([{ key: searchAttributes.status, value: result.status }]);
  setCurrentDetails(
    [
      `**Metrics snapshot** — ${result.status}`,
      `Window [${result.window.from}, ${result.window.to})`,
      result.message,
    ].join('\n\n'),
  );
  const completion = completeJobWindow(resolved);
  if (completion.next) await continueAsNew<typeof metricsSnapshot>(completion.next);
  return { ...result, coveredUntil: completion.coveredUntil };
}

/**
 * Account metrics (cents settled and failed, cash-in and cash-out) of every METRICS_BANK_ACCOUNT_IDS account
 * over a window, stored as one snapshot (a JSON file per run by default). With no account configured it says
 * it had nothing to do. Input is `{from, to}`; a Schedule starts it with none (the time since its schedule's
 * last completed window).
 */
export async function metricsSnapshot(input?: JobWindowInput): Promise<MetricsSnapshotResult> {
  const job = jobIds.metricsSnapshot;
  upsertSearchAttributes([{ key: searchAttributes.kind, value: job }]);
  const resolved = await resolveJobWindow(input);
  const { window } = resolved;
  const accountIds = await bank.metricsAccounts();
  if (accountIds.length === 0) {
    return finish(
      {
        job,
        window,
        status: jobStatuses.nothingToDo,
        message:
          'nothing to do: no bank account configured (METRICS_BANK_ACCOUNT_IDS is empty on the worker)',
        accounts: [],
        file: null,
      },
      resolved,
    );
  }
  const accounts = await Promise.all(
    accountIds.map(async (bankAccountId): Promise<AccountMetrics> => {
      try {
        const metrics = await bank.getMetrics({
          bank_account_id: bankAccountId,
          from_datetime: window.from,
          to_datetime: window.to,
        });
        return { bankAccountId, metrics, error: null };
      } catch (error) {
        return { bankAccountId, metrics: null, error: bankRefusal(error, accountRefusals).message };
      }
    }),
  );
  const { file } = await storeMetricsSnapshot({ job, window, runId: workflowInfo().runId, accounts });
  const refused = accounts.filter((account) => account.error !== null).length;
  return finish(
    {
      job,
      window,
      status: jobStatuses.stored,
      message: `stored the metrics of ${accounts.length - refused} of ${accounts.length} accounts in ${file}`,
      accounts,
      file,
    },
    resolved,
  );
}

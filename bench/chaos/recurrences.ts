import { exampleRecurrenceRequest } from '../../devkit/sandbox/examples/recurrence-request.js';
import type { CollectionAttemptStatus } from '../../src/bank/schemas/collection-attempt.js';
import { runAttemptsSync, startRecurrence, type StarterContext } from '../../src/starter/index.js';
import type { AttemptsSyncSummary } from '../../src/contract/attempts-sync.js';
import { describeError } from './journey.js';
import type { MerchantCalls } from './merchant.js';
import type { SandboxControl } from './sandbox-control.js';

/** A day no seeded attempt falls in, so the sync's window holds exactly the attempts the run produced. */
export const syncWindow = { from: '2040-01-01T00:00:00.000Z', to: '2040-01-02T00:00:00.000Z' };
const attemptsPerRecurrence = 6;
const statuses: CollectionAttemptStatus[] = [
  'settled',
  'failed',
  'created',
  'settled',
  'cancelled',
  'settled',
];
/** The sync pages through the bank while workers die and Temporal restarts; under load that takes minutes. */
const syncBudgetMs = 10 * 60_000;
/** Small pages and runs, so the sync spans many activities and continues as new while the chaos goes on. */
const syncSettings = { pageSize: 5, pagesPerRun: 4 };

export interface RecurrenceRun {
  /** Merchant external ids of the recurrences the run generated. */
  externalIds: string[];
  summary?: AttemptsSyncSummary;
  error?: string;
}

/**
 * Generates recurrences through their workflows, then has the bank collect from each: attempts in the sync's
 * window, each announced by a webhook the faults drop, repeat, reorder or delay.
 */
export async function prepareRecurrences(
  starter: StarterContext,
  retries: MerchantCalls,
  control: SandboxControl,
  options: { seed: number; count: number; virtualAccountId: string },
): Promise<RecurrenceRun> {
  const externalIds = Array.from({ length: options.count }, (_, i) => `chaos-${options.seed}-rec-${i}`);
  const stepMs = (Date.parse(syncWindow.to) - Date.parse(syncWindow.from)) / (attemptsPerRecurrence + 1);
  await Promise.all(
    externalIds.map(async (externalId, index) => {
      const { recurrence } = await retries.call('startRecurrence', () =>
        startRecurrence(
          starter,
          exampleRecurrenceRequest({
            externalId,
            virtualAccountId: options.virtualAccountId,
            startDate: '2040-01-05',
          }),
        ),
      );
      const attempts = statuses.slice(0, attemptsPerRecurrence).map((status, n) => ({
        status,
        timestamp: new Date(Date.parse(syncWindow.from) + (n + 1) * stepMs + index * 1_000).toISOString(),
      }));
      await control.post(`/sandbox/recurrences/${recurrence.id}/attempts`, { attempts });
    }),
  );
  return { externalIds };
}

/**
 * The attempts sync of the window, started the way an operator or a schedule would, repeated if Temporal is
 * down.
 */
export async function syncAttempts(
  starter: StarterContext,
  retries: MerchantCalls,
  run: RecurrenceRun,
): Promise<void> {
  try {
    run.summary = await retries.call(
      'runAttemptsSync',
      () => runAttemptsSync(starter, { ...syncWindow, ...syncSettings }),
      syncBudgetMs,
    );
  } catch (error) {
    run.error = describeError(error);
  }
}

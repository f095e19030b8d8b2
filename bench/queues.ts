import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { temporal as proto } from '@temporalio/proto';
import { defaultPageSize } from '../devkit/sandbox/pagination.js';
import { bankQueueRates } from '../src/config/bank.js';
import { workflowIds } from '../src/contract/ids.js';
import { runAttemptsSync, startRecurrence } from '../src/starter/index.js';
import { enrollCustomer, mapLimit, type Customer } from './customers.js';
import { bankflowJourney } from './journey.js';
import { startOnePartitionTemporal } from './parallel-sync.js';
import { startBankflowProcess, startBankflowWorkers, type BankflowProcess } from './processes.js';
import { benchCredentials, benchWebhookSecret, startBenchSandbox, type BenchStack } from './stack.js';
import { quantile } from './stats.js';
import { recurrenceRequest } from './sync.js';

type HistoryEvent = proto.api.history.v1.IHistoryEvent;

/**
 * The bank's budget shared by two bank queues (src/contract/temporal.ts) on `workers` `bankflow worker`
 * processes, against a sandbox bank that answers 429 past `requestsPerSecond`: an attempts sync keeps the
 * background share saturated while `customers` payment journeys run one after another each, for `durationMs`.
 */
export interface QueuesSettings {
  requestsPerSecond: number;
  interactiveSharePercent: number;
  workers: number;
  customers: number;
  durationMs: number;
}

export interface QueuesResult {
  settings: QueuesSettings;
  shares: { interactive: number; background: number };
  journeys: number;
  /** A bank call a customer waits on: from its activity's scheduling to a worker starting it (histories). */
  interactiveWaitMs: { p50: number; p99: number; max: number; calls: number };
  /**
   * Bank calls the sandbox admitted while the journeys ran: the busiest whole second, the mean, every second.
   */
  bankCallsPerSecond: { max: number; mean: number; seconds: number[] };
  /** The journeys' interactive calls per second, against the interactive share. */
  interactivePerSecond: number;
  /** The part of those that were not the journeys' interactive calls, per second. */
  backgroundPerSecond: number;
  rateLimited: number;
}

const millisOf = (event: HistoryEvent) =>
  Number(event.eventTime?.seconds ?? 0) * 1000 + (event.eventTime?.nanos ?? 0) / 1e6;

/** Schedule-to-start of each activity a run scheduled on a queue whose name ends with `suffix`. */
async function waitsOn(client: Client, workflowId: string, suffix: string): Promise<number[]> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduled = new Map<number, HistoryEvent>();
  const waits: number[] = [];
  for (const event of events) {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (attributes?.taskQueue?.name?.endsWith(suffix)) scheduled.set(Number(event.eventId), event);
    const started = event.activityTaskStartedEventAttributes;
    const from = started && scheduled.get(Number(started.scheduledEventId));
    if (from) waits.push(millisOf(event) - millisOf(from));
  }
  return waits;
}

/** Seeds the window's attempts so the sync pages the background share for longer than the journeys run. */
async function seedAttempts(
  bankSide: BenchStack,
  window: { from: string; to: string },
  attempts: number,
  recurrences: number,
) {
  const ctx = { client: bankSide.client, taskQueue: bankSide.taskQueue };
  const tag = Date.now();
  for (let index = 0; index < recurrences; index++) {
    const started = await startRecurrence(
      ctx,
      recurrenceRequest(bankSide.sandbox.state.world, `bench-queues-${tag}-${index}`),
    );
    const response = await fetch(
      `${bankSide.sandbox.url}/sandbox/recurrences/${started.recurrence.id}/attempts/bulk`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: Math.ceil(attempts / recurrences), statuses: ['settled'], ...window }),
      },
    );
    if (!response.ok) throw new Error(`seeding attempts: ${response.status} ${await response.text()}`);
  }
}

/** Benchmark 5: interactive bank calls beside a saturated background share, within one budget. */
export async function benchQueues(
  stack: BenchStack,
  settings: QueuesSettings,
  progress: (line: string) => void,
): Promise<QueuesResult> {
  const shares = bankQueueRates(settings) as QueuesResult['shares'];
  const sandbox = await startBenchSandbox(stack.logger, {
    journey: true,
    // The budget's own shape: a token bucket of one second's worth, like Temporal's queue limiter, so a call
    // beyond the budget is answered 429 and counted.
    rateLimit: { requestsPerSecond: settings.requestsPerSecond, burst: settings.requestsPerSecond },
  });
  const temporal = await startOnePartitionTemporal();
  const taskQueue = `bench-queues-${Date.now()}`;
  const processes: BankflowProcess[] = [];
  try {
    const env = {
      ...stack.processEnv(taskQueue),
      TEMPORAL_ADDRESS: temporal.address,
      BANK_BASE_URL: sandbox.url,
      BANK_RATE_LIMIT_PER_SECOND: String(settings.requestsPerSecond),
      BANK_INTERACTIVE_SHARE_PERCENT: String(settings.interactiveSharePercent),
    };
    const receiver = await startBankflowProcess({
      command: 'webhooks',
      env: { ...env, WEBHOOK_HOST: '127.0.0.1', WEBHOOK_PORT: '0', WEBHOOK_SECRET: benchWebhookSecret },
      nodeArgs: stack.workerNodeArgs,
      logFile: path.join(stack.workDir, `receiver-${taskQueue}.log`),
      ready: /Webhooks\s+(http:\/\/\S+)\/webhooks/,
    });
    processes.push(receiver);
    sandbox.webhooks.configure({ url: `${receiver.ready[1] ?? ''}/webhooks`, secret: benchWebhookSecret });
    await startBankflowWorkers(stack, taskQueue, settings.workers, env, processes);
    const bankSide: BenchStack = {
      ...stack,
      client: temporal.client,
      taskQueue,
      sandbox,
      bank: { ...benchCredentials, timeoutMs: 10_000, baseUrl: sandbox.url },
    };
    progress(`queues: enrolling ${settings.customers} customers`);
    const customers = await mapLimit(
      Array.from({ length: settings.customers }, (_, index) => index),
      settings.customers,
      () => enrollCustomer(bankSide),
    );

    // Pages for the journeys' time and half a minute more at the background share, so it stays saturated: two
    // windows synced at once (a backfill beside the regular sync), whose slices page side by side.
    const windows = ['2036-01-01', '2036-01-02'].map((day) => ({
      from: `${day}T00:00:00.000Z`,
      to: new Date(Date.parse(`${day}T00:00:00.000Z`) + 86_400_000).toISOString(),
    }));
    const pages = Math.ceil(shares.background * (settings.durationMs / 1000 + 30));
    for (const window of windows) {
      await seedAttempts(bankSide, window, (pages * defaultPageSize) / windows.length, 2);
    }
    const counts = sandbox.rateLimit!;
    const refusedBefore = counts.refused;
    const syncs = windows.map((window) =>
      runAttemptsSync({ client: temporal.client, taskQueue }, window).catch(() => undefined),
    );
    // The sync's slices reach their pace within seconds; the journeys start on a saturated background share.
    await new Promise((resolve) => setTimeout(resolve, 5_000));

    progress(`queues: ${settings.customers} journeys at a time for ${settings.durationMs / 1000} s`);
    const startedAt = Date.now();
    const workflowIdsRun: string[] = [];
    await Promise.all(
      customers.map(async (customer: Customer, lane) => {
        for (let round = 0; Date.now() - startedAt < settings.durationMs; round++) {
          const externalId = `bench-queues-${startedAt}-${lane}-${round}`;
          await bankflowJourney(bankSide, taskQueue, customer, externalId);
          workflowIdsRun.push(workflowIds.payment(externalId));
        }
      }),
    );
    const endedAt = Date.now();
    const rateLimited = counts.refused - refusedBefore;
    for (const window of windows) {
      await temporal.client.workflow
        .getHandle(workflowIds.attemptsSync(window.from, window.to))
        .terminate('the benchmark measured what it needed')
        .catch(() => undefined);
    }
    await Promise.all(syncs);

    const waits = (
      await mapLimit(workflowIdsRun, 8, (id) => waitsOn(temporal.client, id, '-interactive'))
    ).flat();
    const seconds = [...counts.admittedBySecond.entries()]
      .filter(([second]) => second * 1000 >= startedAt && (second + 1) * 1000 <= endedAt)
      .map(([, admitted]) => admitted);
    const mean = seconds.reduce((sum, admitted) => sum + admitted, 0) / Math.max(seconds.length, 1);
    const interactivePerSecond = (waits.length * 1000) / (endedAt - startedAt);
    const result: QueuesResult = {
      settings,
      shares,
      journeys: workflowIdsRun.length,
      interactiveWaitMs: {
        p50: quantile(waits, 0.5),
        p99: quantile(waits, 0.99),
        max: Math.max(...waits),
        calls: waits.length,
      },
      bankCallsPerSecond: { max: Math.max(...seconds), mean, seconds },
      interactivePerSecond,
      backgroundPerSecond: mean - interactivePerSecond,
      rateLimited,
    };
    progress(
      `queues: ${result.journeys} journeys, interactive wait p99 ${result.interactiveWaitMs.p99.toFixed(0)} ms, ` +
        `bank calls/s max ${result.bankCallsPerSecond.max} (budget ${settings.requestsPerSecond}), ` +
        `background ${result.backgroundPerSecond.toFixed(1)}/s of ${shares.background}, ${rateLimited} answered 429`,
    );
    return result;
  } finally {
    await Promise.all(processes.map((process) => process.stop()));
    await temporal.stop();
    await sandbox.stop();
  }
}

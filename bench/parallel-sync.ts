import os from 'node:os';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { developmentEncryptionKeys } from '../src/config.js';
import { defaultPageSize } from '../devkit/sandbox/pagination.js';
import { runAttemptsSync, startRecurrence } from '../src/starter/index.js';
import { findTemporalCli } from '../src/temporal/cli-binary.js';
import { bankflowDataConverter } from '../src/temporal/data-converter.js';
import { parseEncryptionKeys } from '../src/temporal/encryption.js';
import { allSearchAttributeKeys } from '../src/contract/temporal.js';
import { workflowIds } from '../src/contract/ids.js';
import { planSlices } from '../src/workflows/sync/attempts-slices.js';
import { mapLimit } from './customers.js';
import { runCosts } from './history.js';
import { startBankflowWorkers, type BankflowProcess } from './processes.js';
import { startBenchSandbox, type BenchStack } from './stack.js';
import { median } from './stats.js';
import { recurrenceRequest } from './sync.js';

/**
 * A window of `attempts` attempts against a bank that adds `bankLatencyMs` to every call and answers 429 past
 * `requestsPerSecond`, synced by `workers` `bankflow worker` processes whose background share is that limit.
 */
export interface ParallelSyncSettings {
  attempts: number;
  bankLatencyMs: number;
  requestsPerSecond: number;
  workers: number;
  recurrences: number;
  rounds: number;
}

export interface ParallelSyncRun {
  wallMs: number;
  attempts: number;
  pages: number;
  recordsPerSecond: number;
  /** Answers of 429 from the bank during the sync. */
  rateLimited: number;
  /** Bank calls the sandbox admitted per second over the sync. */
  requestsPerSecond: number;
  runs: number;
  /**
   * Where a page's time goes, summed over the slices' histories and divided by the pages: waiting in the task
   * queue (the rate limit's pacing included), the page activity, the slice's workflow tasks. Slices page at
   * once, so these add up to far more than the sync's wall time per page.
   */
  perPageMs: { activityQueue: number; activity: number; workflowTasks: number };
}

/** A page's time in the slices' histories: see `ParallelSyncRun.perPageMs`. */
async function perPage(
  client: Client,
  window: { from: string; to: string },
  requestsPerSecond: number,
  pages: number,
): Promise<ParallelSyncRun['perPageMs']> {
  const { slices } = planSlices(window, requestsPerSecond);
  const costs = (
    await mapLimit(slices, 8, (slice) => runCosts(client, workflowIds.attemptsSyncSlice(window, slice)))
  ).flat();
  const sum = (read: (cost: (typeof costs)[number]) => number) =>
    costs.reduce((total, cost) => total + read(cost), 0) / pages;
  return {
    activityQueue: sum((cost) => cost.activityQueueMs),
    activity: sum((cost) => cost.activityRunMs),
    workflowTasks: sum((cost) => cost.workflowTaskMs),
  };
}

export interface ParallelSyncResult {
  settings: ParallelSyncSettings;
  /** The 1-minute load average before the first round. */
  loadAtStart: number;
  /** What the bank's limit lets through at most: its requests per second times the page size. */
  ceilingRecordsPerSecond: number;
  runs: ParallelSyncRun[];
  median: ParallelSyncRun;
  /** Median records per second over the ceiling. */
  ceilingRatio: number;
  /** Answers of 429 over every round. */
  rateLimited: number;
}

/**
 * A Temporal dev server of the case's own whose task queues have one partition, as docs/operations.md tells
 * operators to give the queue that paces bank calls: Temporal splits a queue's rate over its partitions, and
 * a partition out of tasks leaves its share unused. The bench stack's server keeps the default for the
 * others.
 */
export async function startOnePartitionTemporal() {
  const namespace = 'default';
  const temporal = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: {
        type: 'existing-path',
        path: await findTemporalCli({ explicitPath: process.env.TEMPORAL_CLI, pathEnv: process.env.PATH }),
      },
      ip: '127.0.0.1',
      namespace,
      searchAttributes: allSearchAttributeKeys,
      log: { format: 'pretty', level: 'never' },
      extraArgs: ['matching.numTaskqueueWritePartitions', 'matching.numTaskqueueReadPartitions'].flatMap(
        (key) => ['--dynamic-config-value', `${key}=1`],
      ),
    },
  });
  const connection = await Connection.connect({ address: temporal.address });
  const client = new Client({
    connection,
    namespace,
    dataConverter: bankflowDataConverter(parseEncryptionKeys(developmentEncryptionKeys)),
  });
  return {
    address: temporal.address,
    client,
    async stop() {
      await connection.close();
      await temporal.teardown();
    },
  };
}

/**
 * Benchmark 3b: the attempts sync of a large window in time slices, on several `bankflow worker` processes
 * that share BANK_RATE_LIMIT_PER_SECOND, against a sandbox bank and a Temporal server of its own, the bank
 * with that limit and a latency; each round syncs the same window again (the recurrences take the repeat as
 * duplicates).
 */
export async function benchParallelSync(
  stack: BenchStack,
  settings: ParallelSyncSettings,
  progress: (line: string) => void,
): Promise<ParallelSyncResult> {
  const sandbox = await startBenchSandbox(stack.logger, {
    faults: { latency_ms: settings.bankLatencyMs },
    rateLimit: { requestsPerSecond: settings.requestsPerSecond },
  });
  const temporal = await startOnePartitionTemporal();
  const taskQueue = `bench-parallel-sync-${Date.now()}`;
  const workers: BankflowProcess[] = [];
  try {
    await startBankflowWorkers(
      stack,
      taskQueue,
      settings.workers,
      {
        ...stack.processEnv(taskQueue),
        TEMPORAL_ADDRESS: temporal.address,
        BANK_BASE_URL: sandbox.url,
        // The sync's pages are background calls: a budget of four times the bank's limit, half of it
        // interactive and a quarter the polls' (both unused here), gives the background queue the bank's
        // limit, as before the queues by workload.
        BANK_RATE_LIMIT_PER_SECOND: String(4 * settings.requestsPerSecond),
        BANK_INTERACTIVE_SHARE_PERCENT: '50',
        BANK_POLL_READS_PER_SECOND: String(settings.requestsPerSecond),
      },
      workers,
    );
    const ctx = { client: temporal.client, taskQueue };
    const window = { from: '2036-01-01T00:00:00.000Z', to: '2036-01-02T00:00:00.000Z' };
    const each = Math.ceil(settings.attempts / settings.recurrences);
    const tag = Date.now();
    for (let index = 0; index < settings.recurrences; index++) {
      const started = await startRecurrence(
        ctx,
        recurrenceRequest(sandbox.state.world, `bench-psync-${tag}-${index}`),
      );
      const response = await fetch(
        `${sandbox.url}/sandbox/recurrences/${started.recurrence.id}/attempts/bulk`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ count: each, statuses: ['settled', 'failed'], ...window }),
        },
      );
      if (!response.ok) throw new Error(`seeding attempts: ${response.status} ${await response.text()}`);
    }
    const attempts = each * settings.recurrences;
    const counts = sandbox.rateLimit ?? {
      admitted: 0,
      refused: 0,
      admittedBySecond: new Map<number, number>(),
    };
    const loadAtStart = os.loadavg()[0] ?? 0;

    const runs: ParallelSyncRun[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      const before = { ...counts };
      const started = performance.now();
      const summary = await runAttemptsSync(ctx, window);
      const wallMs = performance.now() - started;
      if (summary.attempts !== attempts) {
        throw new Error(`${attempts} attempts in the window, the parallel sync saw ${summary.attempts}`);
      }
      const run = {
        wallMs,
        attempts: summary.attempts,
        pages: summary.pages,
        recordsPerSecond: (summary.attempts * 1000) / wallMs,
        rateLimited: counts.refused - before.refused,
        requestsPerSecond: ((counts.admitted - before.admitted) * 1000) / wallMs,
        runs: summary.runs,
        perPageMs: await perPage(temporal.client, window, settings.requestsPerSecond, summary.pages),
      };
      runs.push(run);
      progress(
        `parallel sync ${attempts} (bank +${settings.bankLatencyMs} ms, ${settings.requestsPerSecond}/s, ${settings.workers} workers) round ${round + 1}: ` +
          `${run.recordsPerSecond.toFixed(0)} records/s, ${run.requestsPerSecond.toFixed(1)} calls/s, ${run.rateLimited} answered 429`,
      );
    }
    const pick = (read: (run: ParallelSyncRun) => number) => median(runs.map(read));
    const ceilingRecordsPerSecond = settings.requestsPerSecond * defaultPageSize;
    const middle = {
      wallMs: pick((run) => run.wallMs),
      attempts,
      pages: pick((run) => run.pages),
      recordsPerSecond: pick((run) => run.recordsPerSecond),
      rateLimited: pick((run) => run.rateLimited),
      requestsPerSecond: pick((run) => run.requestsPerSecond),
      runs: pick((run) => run.runs),
      perPageMs: {
        activityQueue: pick((run) => run.perPageMs.activityQueue),
        activity: pick((run) => run.perPageMs.activity),
        workflowTasks: pick((run) => run.perPageMs.workflowTasks),
      },
    };
    return {
      settings,
      loadAtStart,
      ceilingRecordsPerSecond,
      runs,
      median: middle,
      ceilingRatio: middle.recordsPerSecond / ceilingRecordsPerSecond,
      rateLimited: runs.reduce((sum, run) => sum + run.rateLimited, 0),
    };
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await temporal.stop();
    await sandbox.stop();
  }
}

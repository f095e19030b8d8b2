import { BankClient } from '../src/bank/client.js';
import type { GenerateRecurrenceRequest } from '../src/bank/schemas/recurrence.js';
import { exampleRecurrenceRequest } from '../devkit/sandbox/examples/recurrence-request.js';
import type { SandboxWorld } from '../devkit/sandbox/seed/world.js';
import { runAttemptsSync, startRecurrence } from '../src/starter/index.js';
import { workflowIds } from '../src/contract/ids.js';
import { cpuPer, medianCpu, stackCpuMs, type CpuSplit } from './cpu.js';
import { control } from './customers.js';
import { runCosts, type RunCost } from './history.js';
import { sampleProcess, startChildWorker, waitUntilQuiet, watchProcess } from './processes.js';
import type { BenchStack } from './stack.js';
import { median, medianRatio } from './stats.js';

/** A window of `attempts` attempts, with `bankLatencyMs` added by the sandbox to every bank call. */
export interface SyncCase {
  attempts: number;
  bankLatencyMs: number;
}

export interface SyncSettings {
  cases: SyncCase[];
  rounds: number;
  /** Recurrences the attempts of a window belong to; each page signals every one of them it holds. */
  recurrences: number;
}

export interface SyncRun {
  attempts: number;
  wallMs: number;
  recordsPerSecond: number;
  /** Page activities scheduled, over every run of the workflow. */
  activityCalls: number;
  signals: number;
  runs: number;
  /** Longest history of one run (continue-as-new keeps it bounded). */
  maxEventsPerRun: number;
  /** The worker process's highest RSS during the sync, and how far above its RSS before the sync that was. */
  peakRssBytes: number;
  peakRssGrowthBytes: number;
  /**
   * Where a page's time goes, averaged over pages: waiting for a worker, the page activity, workflow tasks.
   */
  perPageMs: { total: number; activityQueue: number; activity: number; workflowTasks: number };
  /**
   * CPU the sync took: the worker and the Temporal server; `outside` is the sandbox bank serving the pages.
   */
  cpuMs: CpuSplit;
}

export interface DirectRun {
  attempts: number;
  pages: number;
  wallMs: number;
  recordsPerSecond: number;
  /** CPU paging took: `outside` is this process, the sandbox bank and the client paging it. */
  cpuMs: CpuSplit;
}

export interface SyncRow extends SyncCase {
  sync: SyncRun[];
  direct: DirectRun[];
  median: { sync: SyncRun; direct: DirectRun };
  /** Median over rounds of sync / direct records per second. */
  throughputRatio: number;
}

const dayMs = 24 * 60 * 60_000;
/** Each window is a day of its own, far from the seeded data, so no sync sees another's attempts. */
let windowIndex = 0;

interface Window {
  from: string;
  to: string;
}

function summarizeSync(syncCase: SyncCase, sync: SyncRun[], direct: DirectRun[]): SyncRow {
  const pick = <T>(runs: T[], read: (run: T) => number) => median(runs.map(read));
  return {
    ...syncCase,
    sync,
    direct,
    median: {
      sync: {
        attempts: pick(sync, (run) => run.attempts),
        wallMs: pick(sync, (run) => run.wallMs),
        recordsPerSecond: pick(sync, (run) => run.recordsPerSecond),
        activityCalls: pick(sync, (run) => run.activityCalls),
        signals: pick(sync, (run) => run.signals),
        runs: pick(sync, (run) => run.runs),
        maxEventsPerRun: pick(sync, (run) => run.maxEventsPerRun),
        peakRssBytes: pick(sync, (run) => run.peakRssBytes),
        peakRssGrowthBytes: pick(sync, (run) => run.peakRssGrowthBytes),
        perPageMs: {
          total: pick(sync, (run) => run.perPageMs.total),
          activityQueue: pick(sync, (run) => run.perPageMs.activityQueue),
          activity: pick(sync, (run) => run.perPageMs.activity),
          workflowTasks: pick(sync, (run) => run.perPageMs.workflowTasks),
        },
        cpuMs: medianCpu(sync.map((run) => run.cpuMs)),
      },
      direct: {
        attempts: pick(direct, (run) => run.attempts),
        pages: pick(direct, (run) => run.pages),
        wallMs: pick(direct, (run) => run.wallMs),
        recordsPerSecond: pick(direct, (run) => run.recordsPerSecond),
        cpuMs: medianCpu(direct.map((run) => run.cpuMs)),
      },
    },
    throughputRatio: medianRatio(
      sync.map((run) => run.recordsPerSecond),
      direct.map((run) => run.recordsPerSecond),
    ),
  };
}

/** A recurrence on the first virtual account of a sandbox's world. */
export function recurrenceRequest(world: SandboxWorld, externalId: string): GenerateRecurrenceRequest {
  return exampleRecurrenceRequest({
    externalId,
    virtualAccountId: world.virtualAccountIds[0] ?? '',
    startDate: '2035-01-05',
  });
}

/**
 * The baseline: the same window paged straight from the bank with BankClient, the bank's default page size.
 */
async function pageDirectly(bank: BankClient, window: Window): Promise<Omit<DirectRun, 'cpuMs'>> {
  const started = performance.now();
  let attempts = 0;
  let pages = 0;
  let after: string | undefined;
  do {
    const page = await bank.listCollectionAttempts({
      from_datetime: window.from,
      to_datetime: window.to,
      ...(after ? { after } : {}),
    });
    pages++;
    attempts += page.data.length;
    after = page.metadata.has_next ? (page.metadata.after ?? undefined) : undefined;
  } while (after);
  const wallMs = performance.now() - started;
  return { attempts, pages, wallMs, recordsPerSecond: (attempts * 1000) / wallMs };
}

/**
 * Benchmark 3: `syncRecurrenceAttempts` with its defaults (the schedule's) over windows of bulk-generated
 * attempts, on a `bankflow worker` process of its own, next to paging the same window directly; a case may
 * add latency to every bank call, to see the sync against a bank that takes time to answer.
 */
export async function benchSync(
  stack: BenchStack,
  settings: SyncSettings,
  progress: (line: string) => void,
): Promise<SyncRow[]> {
  const worker = await startChildWorker(stack, `bench-sync-${Date.now()}`);
  try {
    const ctx = { client: stack.client, taskQueue: worker.taskQueue };
    const tag = Date.now();
    const recurrences = await Promise.all(
      Array.from({ length: settings.recurrences }, async (_, index) => {
        const started = await startRecurrence(
          ctx,
          recurrenceRequest(stack.sandbox.state.world, `bench-sync-${tag}-${index}`),
        );
        return started.recurrence.id;
      }),
    );
    const bank = new BankClient(stack.bank, stack.logger);
    const nextWindow = async (size: number) => {
      const from = new Date(Date.UTC(2035, 0, 1) + windowIndex++ * dayMs).toISOString();
      const window = { from, to: new Date(Date.parse(from) + dayMs).toISOString() };
      const count = Math.ceil(size / recurrences.length);
      for (const id of recurrences) {
        await control(stack, 'POST', `/sandbox/recurrences/${id}/attempts/bulk`, {
          count,
          statuses: ['settled', 'failed'],
          ...window,
        });
      }
      return { ...window, attempts: count * recurrences.length };
    };
    const quiet = () => waitUntilQuiet(() => sampleProcess(worker.pid), { timeoutMs: 60_000 });

    const runSync = async (window: Window): Promise<SyncRun> => {
      await quiet();
      const before = sampleProcess(worker.pid).rssBytes;
      const watch = watchProcess(worker.pid, 50);
      const cpuBefore = stackCpuMs(stack, worker.pid);
      const started = performance.now();
      const summary = await runAttemptsSync(ctx, window);
      const wallMs = performance.now() - started;
      const cpuMs = cpuPer(cpuBefore, stackCpuMs(stack, worker.pid));
      const peakRssBytes = Math.max(...watch.stop().map((sample) => sample.rssBytes));
      const costs = await runCosts(stack.client, workflowIds.attemptsSync(window.from, window.to));
      const perPage = (read: (cost: RunCost) => number) =>
        costs.reduce((sum, cost) => sum + read(cost), 0) / summary.pages;
      return {
        attempts: summary.attempts,
        wallMs,
        recordsPerSecond: (summary.attempts * 1000) / wallMs,
        activityCalls: costs.reduce((sum, cost) => sum + cost.activities, 0),
        signals: summary.signals,
        runs: costs.length,
        maxEventsPerRun: Math.max(...costs.map((cost) => cost.events)),
        peakRssBytes,
        peakRssGrowthBytes: peakRssBytes - before,
        perPageMs: {
          total: wallMs / summary.pages,
          activityQueue: perPage((cost) => cost.activityQueueMs),
          activity: perPage((cost) => cost.activityRunMs),
          workflowTasks: perPage((cost) => cost.workflowTaskMs),
        },
        cpuMs,
      };
    };
    const runDirect = async (window: Window): Promise<DirectRun> => {
      await quiet();
      const cpuBefore = stackCpuMs(stack, worker.pid);
      const run = await pageDirectly(bank, window);
      return { ...run, cpuMs: cpuPer(cpuBefore, stackCpuMs(stack, worker.pid)) };
    };
    const bankLatency = (ms: number) =>
      control(stack, 'PUT', '/sandbox/faults', ms > 0 ? { latency_ms: ms } : {});

    const runs = settings.cases.map((syncCase) => ({
      syncCase,
      sync: [] as SyncRun[],
      direct: [] as DirectRun[],
    }));
    await runSync(await nextWindow(100));
    for (let round = 0; round < settings.rounds; round++) {
      for (const done of runs) {
        const { attempts, bankLatencyMs } = done.syncCase;
        const window = await nextWindow(attempts);
        const order = round % 2 === 0 ? (['sync', 'direct'] as const) : (['direct', 'sync'] as const);
        await bankLatency(bankLatencyMs);
        try {
          for (const kind of order) {
            if (kind === 'sync') done.sync.push(await runSync(window));
            else done.direct.push(await runDirect(window));
          }
        } finally {
          await bankLatency(0);
        }
        const sync = done.sync.at(-1)!;
        const direct = done.direct.at(-1)!;
        progress(
          `sync ${attempts} (bank +${bankLatencyMs} ms) round ${round + 1}: ${sync.recordsPerSecond.toFixed(0)} records/s, direct ${direct.recordsPerSecond.toFixed(0)}/s`,
        );
        if (sync.attempts !== window.attempts || direct.attempts !== window.attempts) {
          throw new Error(
            `${window.attempts} attempts: the sync saw ${sync.attempts}, paging ${direct.attempts}`,
          );
        }
      }
    }
    return runs.map((done) => summarizeSync(done.syncCase, done.sync, done.direct));
  } finally {
    await worker.stop();
  }
}

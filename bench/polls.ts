import type { Client } from '@temporalio/client';
import { tsToMs } from '@temporalio/common/lib/time.js';
import proto, { type temporal } from '@temporalio/proto';
import { bankQueueRates } from '../src/config/bank.js';
import { paymentTimings } from '../src/contract/payment.js';
import { mapLimit } from './customers.js';
import { startOpenPayments } from './open-payments.js';
import { startOnePartitionTemporal } from './parallel-sync.js';
import { sampleProcess, startBankflowWorkers, type BankflowProcess } from './processes.js';
import { startBenchSandbox, type BenchStack } from './stack.js';
import { median, quantile } from './stats.js';

/**
 * Payments in processing (past their first hour, so on the sparse plan: 2 min doubling to 30 min) polling the
 * bank through `workers` `bankflow worker` processes within BANK_POLL_READS_PER_SECOND: `payments` of them
 * started at once, measured for `measureMs`, beside a baseline of `baselinePayments` started at half the
 * budget (which never saturates it), measured for `baselineMeasureMs`.
 */
export interface PollsSettings {
  requestsPerSecond: number;
  pollReadsPerSecond: number;
  workers: number;
  payments: number;
  measureMs: number;
  baselinePayments: number;
  baselineMeasureMs: number;
  /**
   * TEMPORAL_MAX_CACHED_WORKFLOWS of every run but the cold one, which caches too few to hold any payment.
   */
  cachedWorkflows: number;
}

export interface PollsRun {
  payments: number;
  measuredMs: number;
  /** Reads the sandbox admitted, every whole second of the measurement after the first read. */
  readsPerSecond: { max: number; median: number; mean: number };
  reads: number;
  /** Payments the bank was asked about at least once. */
  paymentsRead: number;
  pollsPerPayment: { median: number; max: number };
  /** The waits the poll timers were started with (ms). */
  timerWaitMs: { median: number; p99: number; max: number; count: number };
  /** A poll's wait for the budget, from scheduling to a worker starting it (ms). */
  pollQueueWaitMs: { median: number; p99: number };
  workflowTasksPerSecond: number;
  workflowTasksPerPoll: number;
  historyEventsPerPoll: number;
  /** Worker processes together: cores busy, CPU ms per poll, resident memory at the end. */
  workerCores: number;
  workerCpuMsPerPoll: number;
  workerRssBytes: number;
  readsPerPaymentHour: number;
  /** Workflows each worker cached (TEMPORAL_MAX_CACHED_WORKFLOWS). */
  cachedWorkflows: number;
  /** The workers' resident memory once running, before any payment started. */
  idleRssBytes: number;
  /**
   * From the last start to the end: polls per second, and the workers' CPU per poll (the starts' own
   * excluded).
   */
  steady: { readsPerSecond: number; workerCpuMsPerPoll: number; seconds: number };
  /**
   * One whole poll cycle (timer, workflow tasks, read), the start left out: Temporal's billable actions
   * (timers, activities, markers, signals...), history events and bytes, workflow tasks; NaN when no payment
   * polled twice.
   */
  cycle: { polls: number; actions: number; events: number; bytes: number; workflowTasks: number };
}

export interface PollsResult {
  settings: PollsSettings;
  budget: number;
  saturated: PollsRun;
  baseline: PollsRun;
  /**
   * The baseline's payments on a worker caching too few to hold any: every workflow task replays its history.
   */
  cold: PollsRun;
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

interface PaymentHistory {
  reads: number[];
  queueWaits: number[];
  timerWaits: number[];
  workflowTasks: number;
  events: number;
  /** From the first read's start to the last's: whole poll cycles (timer, task, read), the start left out. */
  cycles: PollCycles;
}

/** What whole poll cycles added to histories. */
interface PollCycles {
  count: number;
  events: number;
  bytes: number;
  actions: number;
  workflowTasks: number;
}

async function historyOf(client: Client, workflowId: string): Promise<PaymentHistory> {
  const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const scheduledAt = new Map<number, number>();
  const history: PaymentHistory = {
    reads: [],
    queueWaits: [],
    timerWaits: [],
    workflowTasks: 0,
    events: 0,
    cycles: { count: 0, events: 0, bytes: 0, actions: 0, workflowTasks: 0 },
  };
  history.events = events.length;
  const readStarts = events.flatMap((event, index) =>
    event.activityTaskStartedEventAttributes ? [index] : [],
  );
  const first = readStarts[0] ?? 0;
  const last = readStarts.at(-1) ?? 0;
  const cycle = events.slice(first + 1, last + 1);
  history.cycles = {
    count: Math.max(readStarts.length - 1, 0),
    events: cycle.length,
    bytes: proto.temporal.api.history.v1.History.encode({ events: cycle }).finish().length,
    actions: cycle.filter(billed).length,
    workflowTasks: cycle.filter((event) => event.workflowTaskCompletedEventAttributes).length,
  };
  for (const event of events) {
    const at = tsToMs(event.eventTime);
    if (event.activityTaskScheduledEventAttributes) scheduledAt.set(Number(event.eventId), at);
    const started = event.activityTaskStartedEventAttributes;
    if (started) {
      history.reads.push(at);
      history.queueWaits.push(at - (scheduledAt.get(Number(started.scheduledEventId)) ?? at));
    }
    const timer = event.timerStartedEventAttributes;
    if (timer) history.timerWaits.push(tsToMs(timer.startToFireTimeout));
    if (event.workflowTaskCompletedEventAttributes) history.workflowTasks++;
  }
  return history;
}

/**
 * The events of the commands and messages Temporal bills as actions (Temporal Cloud's pricing page): a start,
 * a timer, an activity, a marker, a signal sent or received, a child, an update, an upsert, a
 * continue-as-new.
 */
const billedEvents = [
  'workflowExecutionStartedEventAttributes',
  'timerStartedEventAttributes',
  'activityTaskScheduledEventAttributes',
  'markerRecordedEventAttributes',
  'workflowExecutionSignaledEventAttributes',
  'signalExternalWorkflowExecutionInitiatedEventAttributes',
  'startChildWorkflowExecutionInitiatedEventAttributes',
  'workflowExecutionUpdateAcceptedEventAttributes',
  'upsertWorkflowSearchAttributesEventAttributes',
  'workflowPropertiesModifiedEventAttributes',
  'workflowExecutionContinuedAsNewEventAttributes',
] as const satisfies (keyof HistoryEvent)[];

const billed = (event: HistoryEvent) => billedEvents.some((attributes) => event[attributes]);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One population of open payments on workers of their own, measured from the first start. */
async function measure(
  stack: BenchStack,
  settings: PollsSettings,
  run: { name: string; payments: number; measureMs: number; perSecond?: number; cachedWorkflows: number },
  progress: (line: string) => void,
): Promise<PollsRun> {
  const sandbox = await startBenchSandbox(stack.logger, { rateLimit: { requestsPerSecond: 10_000 } });
  const temporal = await startOnePartitionTemporal();
  const taskQueue = `bench-polls-${run.name}-${Date.now()}`;
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
        BANK_RATE_LIMIT_PER_SECOND: String(settings.requestsPerSecond),
        BANK_POLL_READS_PER_SECOND: String(settings.pollReadsPerSecond),
        TEMPORAL_MAX_CACHED_WORKFLOWS: String(run.cachedWorkflows),
      },
      workers,
    );
    const idle = workers.map((worker) => sampleProcess(worker.pid));
    const startedAt = Date.now();
    progress(
      `polls: starting ${run.payments} open payments (${run.name}), measuring ${run.measureMs / 1000} s`,
    );
    const processingSince = new Date(startedAt - paymentTimings.frequentPollingMs - 60_000);
    const ids = await startOpenPayments(temporal.client, taskQueue, {
      count: run.payments,
      processingSince,
      ...(run.perSecond === undefined ? {} : { perSecond: run.perSecond }),
    });
    const startsDoneAt = Date.now();
    const afterStarts = workers.map((worker) => sampleProcess(worker.pid).cpuMs);
    await sleep(Math.max(startedAt + run.measureMs - Date.now(), 0));
    const endedAt = Date.now();
    const samples = workers.map((worker) => sampleProcess(worker.pid));
    const cpuMs = samples.reduce((sum, sample, index) => sum + sample.cpuMs - (idle[index]?.cpuMs ?? 0), 0);
    const steadyCpuMs = samples.reduce(
      (sum, sample, index) => sum + sample.cpuMs - (afterStarts[index] ?? 0),
      0,
    );
    progress(`polls: reading ${ids.length} histories (${run.name})`);
    const histories = await mapLimit(ids, 16, (id) => historyOf(temporal.client, id));
    await mapLimit(ids, 16, (id) =>
      temporal.client.workflow
        .getHandle(id)
        .terminate('measured')
        .catch(() => 0),
    );

    const firstRead = Math.min(...histories.flatMap((history) => history.reads));
    const seconds = [...sandbox.rateLimit!.admittedBySecond.entries()]
      .filter(([second]) => second * 1_000 >= firstRead && (second + 1) * 1_000 <= endedAt)
      .map(([, admitted]) => admitted);
    const reads = histories.reduce((sum, history) => sum + history.reads.length, 0);
    const timerWaits = histories.flatMap((history) => history.timerWaits);
    const queueWaits = histories.flatMap((history) => history.queueWaits);
    const workflowTasks = histories.reduce((sum, history) => sum + history.workflowTasks, 0);
    const events = histories.reduce((sum, history) => sum + history.events, 0);
    const steadyReads = histories
      .flatMap((history) => history.reads)
      .filter((at) => at >= startsDoneAt).length;
    const steadySeconds = (endedAt - startsDoneAt) / 1_000;
    const sum = (of: (history: PaymentHistory) => number) =>
      histories.reduce((total, history) => total + of(history), 0);
    const measuredMs = endedAt - startedAt;
    const result: PollsRun = {
      payments: ids.length,
      measuredMs,
      readsPerSecond: {
        max: Math.max(...seconds),
        median: median(seconds),
        mean: seconds.reduce((sum, count) => sum + count, 0) / Math.max(seconds.length, 1),
      },
      reads,
      paymentsRead: histories.filter((history) => history.reads.length > 0).length,
      pollsPerPayment: {
        median: median(histories.map((history) => history.reads.length)),
        max: Math.max(...histories.map((history) => history.reads.length)),
      },
      timerWaitMs: {
        median: median(timerWaits),
        p99: quantile(timerWaits, 0.99),
        max: Math.max(...timerWaits),
        count: timerWaits.length,
      },
      pollQueueWaitMs: { median: median(queueWaits), p99: quantile(queueWaits, 0.99) },
      workflowTasksPerSecond: (workflowTasks * 1_000) / measuredMs,
      workflowTasksPerPoll: workflowTasks / Math.max(reads, 1),
      historyEventsPerPoll: events / Math.max(reads, 1),
      workerCores: cpuMs / measuredMs,
      workerCpuMsPerPoll: cpuMs / Math.max(reads, 1),
      workerRssBytes: samples.reduce((sum, sample) => sum + sample.rssBytes, 0),
      readsPerPaymentHour: (reads / ids.length) * (3_600_000 / measuredMs),
      cachedWorkflows: run.cachedWorkflows,
      idleRssBytes: idle.reduce((total, sample) => total + sample.rssBytes, 0),
      steady: {
        readsPerSecond: steadyReads / steadySeconds,
        workerCpuMsPerPoll: steadyCpuMs / Math.max(steadyReads, 1),
        seconds: steadySeconds,
      },
      cycle: {
        polls: sum((history) => history.cycles.count),
        actions: sum((history) => history.cycles.actions) / sum((history) => history.cycles.count),
        events: sum((history) => history.cycles.events) / sum((history) => history.cycles.count),
        bytes: sum((history) => history.cycles.bytes) / sum((history) => history.cycles.count),
        workflowTasks:
          sum((history) => history.cycles.workflowTasks) / sum((history) => history.cycles.count),
      },
    };
    progress(
      `polls (${run.name}): ${result.paymentsRead}/${result.payments} read, reads/s max ${result.readsPerSecond.max} ` +
        `median ${result.readsPerSecond.median}, timer wait median ${(result.timerWaitMs.median / 1000).toFixed(0)} s`,
    );
    return result;
  } finally {
    await Promise.all(workers.map((worker) => worker.stop()));
    await temporal.stop();
    await sandbox.stop();
  }
}

/** The SDK's smallest workflow cache: far fewer than the payments, so each of their tasks replays. */
const coldCache = 10;

/** Benchmark 6: open payments polling within the poll budget, against a baseline that never saturates it. */
export async function benchPolls(
  stack: BenchStack,
  settings: PollsSettings,
  progress: (line: string) => void,
): Promise<PollsResult> {
  const budget = bankQueueRates(settings).polls ?? settings.pollReadsPerSecond;
  const small = {
    payments: settings.baselinePayments,
    measureMs: settings.baselineMeasureMs,
    perSecond: budget / 2,
  };
  const baseline = await measure(
    stack,
    settings,
    { name: 'baseline', ...small, cachedWorkflows: settings.cachedWorkflows },
    progress,
  );
  const cold = await measure(
    stack,
    settings,
    { name: 'cold', ...small, cachedWorkflows: coldCache },
    progress,
  );
  const saturated = await measure(
    stack,
    settings,
    {
      name: 'saturated',
      payments: settings.payments,
      measureMs: settings.measureMs,
      cachedWorkflows: settings.cachedWorkflows,
    },
    progress,
  );
  return { settings, budget, saturated, baseline, cold };
}

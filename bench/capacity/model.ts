import { enrollmentTimings } from '../../src/contract/enrollment.js';
import { paymentTimings } from '../../src/contract/payment.js';
import { pollStretchFactor } from '../../src/contract/journeys.js';
import type { PollsResult, PollsRun } from '../polls.js';

/** What bankflow holds open at one time: the population a fleet is sized for. */
export interface Population {
  /** Payments in processing past their first hour: the bulk of the open ones, followed for up to 7 days. */
  payments: number;
  /** Authorized enrollments, each checked at the bank once a day. */
  enrollments: number;
  /** Approved recurrences: they read the bank only when an attempt's webhook comes (a handful a month). */
  recurrences: number;
}

/** The fleet's settings a projection takes. */
export interface FleetSettings {
  /** BANK_POLL_READS_PER_SECOND. */
  pollReadsPerSecond: number;
  /** Workflows each worker caches (TEMPORAL_MAX_CACHED_WORKFLOWS, or the heap-sized default). */
  cachedWorkflowsPerWorker: number;
  /** Worker processes; unset, as many as the CPU needs at one core each. */
  workers?: number;
  /** Days Temporal keeps a closed run's history (the namespace's retention). */
  retentionDays: number;
  /** How often a payment asks the bank on the plan; unset, the sparse plan's 30 minutes. */
  paymentIntervalS?: number;
}

/**
 * What one poll, one cached workflow and an idle worker cost: measured by `npm run bench -- --only polls`.
 */
export interface UnitCosts {
  /** Worker CPU of a poll whose workflow is cached, and of one whose every task replays its history. */
  pollCpuMs: { cached: number; replayed: number };
  workflowTasksPerPoll: number;
  historyEventsPerPoll: number;
  historyBytesPerPoll: number;
  actionsPerPoll: number;
  workerIdleRssBytes: number;
  cachedWorkflowBytes: number;
  /**
   * What replaying instead of caching adds to a worker's RSS: the garbage of histories decoded and dropped.
   */
  replayChurnRssBytes: number;
}

/**
 * The unit costs a polls benchmark measured: a poll's from its baseline, a replayed poll's from its cold run.
 */
export function unitCostsOf(polls: PollsResult): UnitCosts {
  const { baseline, cold, settings } = polls;
  const cachedAtBaseline = Math.min(baseline.payments, baseline.cachedWorkflows * settings.workers);
  return {
    pollCpuMs: { cached: baseline.steady.workerCpuMsPerPoll, replayed: cold.steady.workerCpuMsPerPoll },
    workflowTasksPerPoll: baseline.cycle.workflowTasks,
    historyEventsPerPoll: baseline.cycle.events,
    historyBytesPerPoll: baseline.cycle.bytes,
    actionsPerPoll: baseline.cycle.actions,
    workerIdleRssBytes: baseline.idleRssBytes / settings.workers,
    cachedWorkflowBytes: (baseline.workerRssBytes - baseline.idleRssBytes) / Math.max(cachedAtBaseline, 1),
    replayChurnRssBytes: Math.max((cold.workerRssBytes - cold.idleRssBytes) / settings.workers, 0),
  };
}

export interface Projection {
  /** Reads the plan asks for; the smallest budget whose stretched waits stay within every stage's ceiling. */
  plannedReadsPerSecond: number;
  minimumPollBudget: number;
  /** Reads the budget lets through, and the wait between a payment's polls that follows. */
  bankReadsPerSecond: number;
  paymentPollIntervalS: number;
  workflowTasksPerSecond: number;
  temporalActionsPerSecond: number;
  /** History written per second and per day; held: a payment's 7 days of processing plus the retention. */
  historyBytesPerSecond: number;
  historyGbPerDay: number;
  historyGbHeld: number;
  /** The share of a poll's two workflow tasks that replay (0, 0.5 or 1): see `replayedShare`. */
  replayedShare: number;
  workerCores: number;
  workers: number;
  workerMemoryGb: number;
}

const day = 86_400;

/**
 * The fleet a population needs: each figure a count of units (polls, open workflows) times a measured cost.
 */
export function project(population: Population, settings: FleetSettings, costs: UnitCosts): Projection {
  const paymentIntervalS =
    settings.paymentIntervalS ?? paymentTimings.sparsePolling.maxPollIntervalMs / 1_000;
  const enrollmentIntervalS = enrollmentTimings.authorizedCheckIntervalMs / 1_000;
  const paymentReads = population.payments / paymentIntervalS;
  const planned = paymentReads + population.enrollments / enrollmentIntervalS;
  const reads = Math.min(planned, settings.pollReadsPerSecond);
  const ceilingS = (paymentTimings.sparsePolling.stretchCeilingMs ?? 0) / 1_000;
  // A saturated budget stretches every journey's waits alike, so payments keep their planned part of the
  // polls.
  const paymentPollIntervalS = population.payments / ((reads * paymentReads) / Math.max(planned, 1e-9));
  const polled = population.payments + population.enrollments;
  const open = polled + population.recurrences;
  const coresFor = (workers: number) => {
    const share = replayedShare(polled, reads, planned, workers * settings.cachedWorkflowsPerWorker);
    const perPoll = costs.pollCpuMs.cached + share * (costs.pollCpuMs.replayed - costs.pollCpuMs.cached);
    return { share, cores: (reads * perPoll) / 1_000 };
  };
  let workers = settings.workers ?? 1;
  while (settings.workers === undefined && coresFor(workers).cores > workers) workers++;
  const { share, cores } = coresFor(workers);
  const historyBytesPerSecond = reads * costs.historyBytesPerPoll;
  const historyGbPerDay = (historyBytesPerSecond * day) / 1e9;
  const cachedPerWorker = Math.min(settings.cachedWorkflowsPerWorker, open / workers);
  return {
    plannedReadsPerSecond: planned,
    minimumPollBudget: population.payments / ceilingS + population.enrollments / enrollmentIntervalS,
    bankReadsPerSecond: reads,
    paymentPollIntervalS,
    workflowTasksPerSecond: reads * costs.workflowTasksPerPoll,
    temporalActionsPerSecond: reads * costs.actionsPerPoll,
    historyBytesPerSecond,
    historyGbPerDay,
    historyGbHeld: historyGbPerDay * (paymentTimings.processingMs / 1_000 / day + settings.retentionDays),
    replayedShare: share,
    workerCores: cores,
    workers,
    workerMemoryGb:
      (workers *
        (costs.workerIdleRssBytes +
          cachedPerWorker * costs.cachedWorkflowBytes +
          (share > 0 ? costs.replayChurnRssBytes : 0))) /
      1e9,
  };
}

/**
 * The share of a poll's two workflow tasks (the timer's, then the read's answer) that find their workflow
 * evicted. Polled in turn, the journeys pass through an LRU cache of `cached` workflows in `cached / reads`
 * seconds (each poll brings one back): a task misses when its workflow's previous task is older than that.
 * The timer's task comes a whole interval (`polled / reads`) after the last poll's answer; the answer comes
 * after the read's wait for the budget, which the pace keeps at a `pollStretchFactor`th of the interval while
 * the budget is saturated and near nothing while it is not.
 */
export function replayedShare(polled: number, reads: number, planned: number, cached: number): number {
  if (reads <= 0) return 0;
  const turnoverS = cached / reads;
  const intervalS = polled / reads;
  const answerWaitS = planned > reads ? intervalS / pollStretchFactor : 0;
  return ((intervalS > turnoverS ? 1 : 0) + (answerWaitS > turnoverS ? 1 : 0)) / 2;
}

/**
 * One figure of the check: what the model projected for the benchmark's point and what the benchmark
 * measured.
 */
export interface CheckedFigure {
  figure: string;
  projected: number;
  measured: number;
}

/** The agreement the capacity model is held to at the point it is checked. */
export const checkTolerance = 0.2;

/**
 * The model checked at the benchmark's saturated point, projected from the small runs' unit costs alone: its
 * payments on the first step of the sparse plan (2 minutes), polling the budget on the bench's workers and
 * cache.
 */
export function checkAtSaturatedPoint(polls: PollsResult): CheckedFigure[] {
  const { saturated, settings, budget } = polls;
  const projection = project(
    { payments: saturated.payments, enrollments: 0, recurrences: 0 },
    {
      pollReadsPerSecond: budget,
      cachedWorkflowsPerWorker: saturated.cachedWorkflows,
      workers: settings.workers,
      retentionDays: 0,
      paymentIntervalS: paymentTimings.sparsePolling.firstPollAfterMs / 1_000,
    },
    unitCostsOf(polls),
  );
  const measured = measuredAt(saturated);
  return [
    { figure: 'bank reads/s', projected: projection.bankReadsPerSecond, measured: measured.reads },
    {
      figure: 'workflow tasks/s',
      projected: projection.workflowTasksPerSecond,
      measured: measured.reads * saturated.cycle.workflowTasks,
    },
    {
      figure: 'Temporal actions/s',
      projected: projection.temporalActionsPerSecond,
      measured: measured.reads * saturated.cycle.actions,
    },
    {
      figure: 'history KB/s',
      projected: projection.historyBytesPerSecond / 1e3,
      measured: (measured.reads * saturated.cycle.bytes) / 1e3,
    },
    { figure: 'worker cores', projected: projection.workerCores, measured: measured.cores },
    {
      figure: 'worker memory MB',
      projected: projection.workerMemoryGb * 1e3,
      measured: saturated.workerRssBytes / 1e6,
    },
  ];
}

/** What the saturated run measured once every payment had started: reads per second and worker cores. */
function measuredAt(run: PollsRun) {
  return {
    reads: run.steady.readsPerSecond,
    cores: (run.steady.readsPerSecond * run.steady.workerCpuMsPerPoll) / 1_000,
  };
}

export const withinTolerance = (figure: CheckedFigure) =>
  Math.abs(figure.projected / figure.measured - 1) <= checkTolerance;

import { paymentTimings } from '../src/contract/payment.js';
import { checkAtSaturatedPoint, checkTolerance, withinTolerance } from './capacity/model.js';
import type { PollsResult, PollsRun } from './polls.js';
import { exactly, fixed, mb, table, type TargetCheck } from './report.js';
import { ratio } from './stats.js';

/**
 * Temporal's limiter lets one second's worth through at once after a quiet spell, beside the second's own.
 */
const burstSeconds = 1;
const ceilingMs = paymentTimings.sparsePolling.stretchCeilingMs;

export function pollsTargets(polls: PollsResult): TargetCheck[] {
  const { saturated, budget } = polls;
  const most = budget * (1 + burstSeconds);
  return [
    {
      target: `polls: ${saturated.payments} open payments never read faster than the poll budget ${budget}/s (+ ${burstSeconds} s burst: <= ${most} in any second)`,
      measured: `busiest second ${saturated.readsPerSecond.max}, median ${saturated.readsPerSecond.median}/s`,
      met: saturated.readsPerSecond.max <= most,
    },
    {
      target: `polls: every open payment read at least once within its ceiling (${ceilingMs / 60_000} min)`,
      measured: `${saturated.paymentsRead} of ${saturated.payments} within ${fixed(saturated.measuredMs / 60_000, 1)} min; longest wait ${fixed(saturated.timerWaitMs.max / 60_000, 1)} min`,
      met: saturated.paymentsRead === saturated.payments && saturated.timerWaitMs.max <= ceilingMs,
    },
    {
      target: `capacity model (docs/capacity.md): at ${saturated.payments} open payments, projected from the small runs within ${checkTolerance * 100} % of measured`,
      measured: checkAtSaturatedPoint(polls)
        .map((figure) => `${figure.figure} ${fixed(figure.projected, 2)} vs ${fixed(figure.measured, 2)}`)
        .join('; '),
      met: checkAtSaturatedPoint(polls).every(withinTolerance),
    },
  ];
}

const row = (name: string, run: PollsRun) => [
  name,
  String(run.payments),
  fixed(run.measuredMs / 1000),
  `${run.readsPerSecond.max} / ${run.readsPerSecond.median} / ${fixed(run.readsPerSecond.mean, 1)}`,
  `${run.paymentsRead} (${run.pollsPerPayment.median} / ${run.pollsPerPayment.max})`,
  `${fixed(run.timerWaitMs.median / 1000)} / ${fixed(run.timerWaitMs.p99 / 1000)}`,
  `${fixed(run.pollQueueWaitMs.median / 1000, 1)} / ${fixed(run.pollQueueWaitMs.p99 / 1000, 1)}`,
  fixed(run.workflowTasksPerSecond, 1),
  `${fixed(run.workerCores, 2)} / ${mb(run.workerRssBytes)}`,
];

const costs = (name: string, run: PollsRun) => [
  name,
  fixed(run.readsPerPaymentHour, 2),
  fixed(run.workflowTasksPerPoll, 2),
  fixed(run.historyEventsPerPoll, 1),
  fixed(run.workerCpuMsPerPoll, 1),
  fixed(run.steady.workerCpuMsPerPoll, 1),
  `${fixed(run.cycle.workflowTasks, 2)} / ${fixed(run.cycle.events, 1)} / ${fixed(run.cycle.actions, 2)} / ${fixed(run.cycle.bytes / 1e3, 2)} (${run.cycle.polls})`,
];

export function renderPolls(polls: PollsResult): string[] {
  const { settings, saturated, baseline, budget } = polls;
  const memoryPerPayment =
    (saturated.workerRssBytes - baseline.workerRssBytes) / (saturated.payments - baseline.payments);
  return [
    `6. Polling within a budget: ${settings.workers} \`bankflow worker\` process(es), BANK_RATE_LIMIT_PER_SECOND=${settings.requestsPerSecond}, BANK_POLL_READS_PER_SECOND=${budget}; payments in processing past their first hour (plan: 2 min doubling to 30 min, ceiling ${ceilingMs / 60_000} min), started as a continued run would be; baseline started at half the budget so it never saturates`,
    table(
      [
        'run',
        'payments',
        'measured s',
        'reads/s max / median / mean',
        'payments read (polls each median / max)',
        'timer wait median / p99 s',
        'poll queue wait median / p99 s',
        'workflow tasks/s',
        'worker cores / RSS MB',
      ],
      [row('baseline', baseline), row('cold', polls.cold), row('saturated', saturated)],
    ),
    `Ratios saturated / baseline: payments ${exactly(ratio(saturated.payments, baseline.payments))}, reads/s (median) ${exactly(ratio(saturated.readsPerSecond.median, baseline.readsPerSecond.median))}, timer wait (median) ${exactly(ratio(saturated.timerWaitMs.median, baseline.timerWaitMs.median))}, worker CPU ms per poll ${exactly(ratio(saturated.workerCpuMsPerPoll, baseline.workerCpuMsPerPoll))}`,
    `The cold run: the baseline's payments on workers caching ${polls.cold.cachedWorkflows} workflows, so every workflow task replays its history. Per-journey costs for the capacity model (memory per open cached payment: RSS difference / payments difference = ${fixed(memoryPerPayment / 1024, 1)} KiB)`,
    table(
      [
        'run',
        'reads per open payment per hour',
        'workflow tasks per poll',
        'history events per poll',
        'worker CPU ms per poll',
        'the same once all started',
        'a whole poll cycle: workflow tasks / history events / Temporal actions / history KB (cycles)',
      ],
      [costs('baseline', baseline), costs('cold', polls.cold), costs('saturated', saturated)],
    ),
  ];
}

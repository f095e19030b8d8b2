/**
 * `npm run capacity [-- <results.json>]`: the capacity model's tables (docs/capacity.md) from a polls
 * benchmark's results, the newest in bench/results unless given: the unit costs it measured, the fleet for
 * each population, and the model checked at the benchmark's own point.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { PollsResult } from '../polls.js';
import { fixed, table } from '../report.js';
import {
  checkAtSaturatedPoint,
  checkTolerance,
  project,
  unitCostsOf,
  withinTolerance,
  type Population,
} from './model.js';

const resultsDir = path.resolve('bench/results');

function newestPollsResult(given?: string): { file: string; polls: PollsResult } {
  const files = given
    ? [given]
    : readdirSync(resultsDir)
        .filter((name) => name.endsWith('.json'))
        .sort()
        .reverse()
        .map((name) => path.join(resultsDir, name));
  for (const file of files) {
    const results = JSON.parse(readFileSync(file, 'utf8')) as { polls?: PollsResult };
    if (results.polls?.cold) return { file, polls: results.polls };
  }
  throw new Error(
    `no polls benchmark results in ${given ?? resultsDir}: run \`npm run bench -- --only polls\``,
  );
}

/**
 * The populations docs/capacity.md sizes for: payments and enrollments open at once, beside 100k recurrences.
 */
export const populations: Population[] = [10_000, 100_000, 1_000_000].map((open) => ({
  payments: open,
  enrollments: open,
  recurrences: 100_000,
}));

const { file, polls } = newestPollsResult(process.argv[2]);
const costs = unitCostsOf(polls);
const settings = { cachedWorkflowsPerWorker: 2_000, retentionDays: 7 };
const count = (value: number) => value.toLocaleString('en-US', { maximumFractionDigits: 0 });

console.log(
  `From ${path.basename(file)} (${polls.baseline.payments} and ${polls.saturated.payments} payments).\n`,
);
console.log(
  table(
    ['unit cost', 'measured'],
    [
      ['worker CPU per poll, workflow cached', `${fixed(costs.pollCpuMs.cached, 1)} ms`],
      ['worker CPU per poll, every task replayed', `${fixed(costs.pollCpuMs.replayed, 1)} ms`],
      ['workflow tasks per poll', fixed(costs.workflowTasksPerPoll, 2)],
      ['history events per poll', fixed(costs.historyEventsPerPoll, 1)],
      ['history bytes per poll', count(costs.historyBytesPerPoll)],
      ['Temporal actions per poll', fixed(costs.actionsPerPoll, 2)],
      ['idle worker RSS', `${fixed(costs.workerIdleRssBytes / 1e6)} MB`],
      ['RSS per cached workflow', `${fixed(costs.cachedWorkflowBytes / 1e3)} KB`],
      ['RSS of replaying instead (the cold run, above idle)', `${fixed(costs.replayChurnRssBytes / 1e6)} MB`],
    ],
  ),
);
console.log('');
const rows = populations.flatMap((population) => {
  const planned = project(population, { ...settings, pollReadsPerSecond: Number.POSITIVE_INFINITY }, costs);
  const floor = project(population, { ...settings, pollReadsPerSecond: planned.minimumPollBudget }, costs);
  return [planned, floor].map((projection, index) => [
    `${count(population.payments)} + ${count(population.enrollments)}`,
    index === 0 ? 'the plan (30 min)' : 'the floor (2 h)',
    fixed(projection.bankReadsPerSecond, 1),
    `${fixed(projection.paymentPollIntervalS / 60)} min`,
    fixed(projection.temporalActionsPerSecond, 1),
    fixed(projection.workflowTasksPerSecond, 1),
    `${fixed(projection.historyGbPerDay, 2)} / ${fixed(projection.historyGbHeld, 1)}`,
    `${fixed(projection.workerCores, 2)} (${fixed(projection.replayedShare * 100)} % of tasks replay)`,
    `${projection.workers} / ${fixed(projection.workerMemoryGb, 1)} GB`,
  ]);
});
console.log(
  table(
    [
      'payments + enrollments open',
      'poll budget',
      'bank reads/s',
      'a payment polled every',
      'Temporal actions/s',
      'workflow tasks/s',
      'history GB per day / held',
      'worker cores',
      'workers / memory',
    ],
    rows,
  ),
);
console.log('');
const check = checkAtSaturatedPoint(polls);
console.log(
  table(
    ['at the benchmark point', 'projected', 'measured', `within ${checkTolerance * 100} %`],
    check.map((figure) => [
      figure.figure,
      fixed(figure.projected, 2),
      fixed(figure.measured, 2),
      withinTolerance(figure) ? 'yes' : 'NO',
    ]),
  ),
);

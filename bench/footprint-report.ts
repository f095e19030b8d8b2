import type { FootprintLevel, FootprintResult } from './footprint.js';
import { fixed, mb, percent, table, type TargetCheck } from './report.js';

const MiB = 2 ** 20;
const kb = (bytes: number) => fixed(bytes / 1024);
const allOpen = (level: FootprintLevel) => level.open >= level.workflows;

/**
 * How a waiting payment's memory grows with the number waiting: RSS above idle per payment at the largest
 * level over the same at the smallest, i.e. the memory's growth over the work's growth. 1 is linear; a worker
 * whose memory the workflow cache bounds stays below 1.
 */
export function footprintGrowth(result: FootprintResult): number | undefined {
  const { points } = waitingGrowthPoints(result);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last || first === last) return undefined;
  return last.cost / first.cost / (last.work / first.work);
}

/**
 * The waiting-workflows line of the cost-growth report: work is the payments waiting, cost the worker's RSS
 * above idle, one point per level. Its growth over the work's, step by step, is footprintGrowth's ratio.
 */
export function waitingGrowthPoints(result: FootprintResult) {
  return {
    units: { work: 'waiting payments', cost: 'worker RSS above idle, bytes' },
    points: result.levels.map((level) => ({
      label: `${level.workflows} waiting`,
      work: level.workflows,
      cost: level.waiting.rssBytes - result.idle.rssBytes,
    })),
  };
}

/** The worker-memory targets of docs/performance.md. */
export function footprintTargets(result: FootprintResult): TargetCheck[] {
  const first = result.levels[0];
  const last = result.levels.at(-1);
  if (!first || !last) return [];
  const checks: TargetCheck[] = [
    {
      target: `worker RSS < 300 MB with ${first.workflows} waiting payments`,
      measured: `${mb(first.waiting.rssBytes)} MB (${first.open} open)`,
      met: first.waiting.rssBytes < 300 * MiB && allOpen(first),
    },
    {
      target: `worker RSS <= 100 KB per waiting payment (${first.workflows} waiting, above idle)`,
      measured: `${kb(first.perWorkflowBytes)} KB`,
      met: first.perWorkflowBytes <= 100 * 1024 && allOpen(first),
    },
  ];
  // How memory per waiting payment grows is the cost-growth report's waiting-workflows line
  // (waitingGrowthPoints).
  if (first !== last) {
    checks.push({
      target: `worker RSS < 400 MB with ${last.workflows} waiting payments (bounded by the workflow cache)`,
      measured: `${mb(last.waiting.rssBytes)} MB (${last.open} open)`,
      met: last.waiting.rssBytes < 400 * MiB && allOpen(last),
    });
  }
  return checks;
}

/** Benchmark 4's table. */
export function renderFootprint(result: FootprintResult): string[] {
  const growth = footprintGrowth(result);
  return [
    `4. Worker footprint: a \`bankflow worker\` process at default settings; RSS is the median of samples over ${fixed(result.measureMs / 1000)} s, CPU the average over the same window`,
    table(
      [
        '',
        'RSS MB',
        'KB per waiting payment (above idle)',
        'CPU (share of one core)',
        'open',
        'started in s',
        'peak RSS MB while starting',
      ],
      [
        ['idle, no workflow', mb(result.idle.rssBytes), '', percent(result.idle.cpu), '0', '', ''],
        ...result.levels.map((level) => [
          `${level.workflows} payments waiting on webhooks`,
          mb(level.waiting.rssBytes),
          kb(level.perWorkflowBytes),
          percent(level.waiting.cpu),
          String(level.open),
          `${fixed(level.rampMs / 1000, 1)} (${level.started})`,
          mb(level.rampPeakRssBytes),
        ]),
      ],
    ),
    ...(growth === undefined
      ? []
      : [
          `Memory per waiting payment from ${result.levels[0]?.workflows} to ${result.levels.at(-1)?.workflows} waiting: ${fixed(growth, 2)}x (RSS above idle per payment at the largest level over the smallest; 1 is linear growth).`,
        ]),
  ];
}

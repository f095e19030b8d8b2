import { ratio } from './stats.js';

/**
 * One measured size of a benchmark: how much work it did and what that work cost, e.g. `{ label: '100
 * concurrent', work: 100, cost: 6_400 }` for 100 journeys that took 6,400 ms of CPU in all. `work` and `cost`
 * may be in any unit, as long as every point of a line uses the same two: only their ratios count.
 */
export interface GrowthPoint {
  label: string;
  work: number;
  cost: number;
}

/**
 * From one size to the next larger one: how many times the work and the cost grew, and the one over the
 * other.
 */
export interface GrowthStep {
  from: string;
  to: string;
  workGrowth: number;
  costGrowth: number;
  /** costGrowth / workGrowth: 1 is linear, above 1 each unit of work costs more at the larger size. */
  ratio: number;
}

export interface GrowthLine {
  /** What grew, e.g. 'journeys'. */
  name: string;
  /** What `work` and `cost` count, for the report, e.g. 'concurrent journeys' and 'CPU ms for the batch'. */
  work: string;
  cost: string;
  points: GrowthPoint[];
  steps: GrowthStep[];
  /** The largest step ratio: the line meets its target when this is at most `maxGrowthRatio`. */
  worst: number;
  /** Shown for comparison only, with no target of its own (the engine floor's lines). */
  reference?: true;
}

/**
 * "Cost growth over work growth at most 1.2x": doing n times the work may cost at most 1.2 n times as much.
 */
export const maxGrowthRatio = 1.2;

/**
 * A growth line from two or more points of one benchmark (any order; sizes measured twice must be combined
 * first). Every step from a size to the next larger one is judged on its own, so 1k -> 10k -> 100k is two
 * steps. NaN ratios (a size that did no work, a broken run) make the line a miss, never a pass.
 */
export function growthLine(
  name: string,
  units: { work: string; cost: string },
  points: readonly GrowthPoint[],
): GrowthLine {
  const sorted = [...points].sort((a, b) => a.work - b.work);
  const steps = sorted.slice(1).map((to, index): GrowthStep => {
    const from = sorted[index]!;
    const workGrowth = ratio(to.work, from.work);
    const costGrowth = ratio(to.cost, from.cost);
    return { from: from.label, to: to.label, workGrowth, costGrowth, ratio: ratio(costGrowth, workGrowth) };
  });
  const ratios = steps.map((step) => step.ratio);
  const worst = steps.length === 0 || ratios.some(Number.isNaN) ? Number.NaN : Math.max(...ratios);
  return { name, ...units, points: sorted, steps, worst };
}

/** Lines with at least one step; a benchmark that measured a single size has no growth to judge. */
export const measuredLines = (lines: readonly (GrowthLine | undefined)[]): GrowthLine[] =>
  lines.filter((line): line is GrowthLine => line !== undefined && line.steps.length > 0);

export const growthMet = (line: GrowthLine): boolean => line.worst <= maxGrowthRatio;

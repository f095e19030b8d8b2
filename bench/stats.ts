/**
 * The q-quantile (0 <= q <= 1) of the samples, interpolating linearly between the two closest ranks (the
 * spreadsheet PERCENTILE.INC definition), so p50 of an even count is the mean of the middle two. NaN when
 * empty.
 */
export function quantile(samples: readonly number[], q: number): number {
  if (q < 0 || q > 1) throw new RangeError(`quantile must be within [0, 1], got ${q}`);
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = q * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  const lower = sorted[low] ?? Number.NaN;
  const upper = sorted[high] ?? Number.NaN;
  return lower + (upper - lower) * (rank - low);
}

export const median = (samples: readonly number[]): number => quantile(samples, 0.5);

export interface LatencySummary {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

export function summarize(samples: readonly number[]): LatencySummary {
  return {
    count: samples.length,
    p50: quantile(samples, 0.5),
    p99: quantile(samples, 0.99),
    max: samples.length === 0 ? Number.NaN : Math.max(...samples),
  };
}

/**
 * `value / baseline`; NaN when the baseline is not a positive number, so a broken run never reads as a win.
 */
export function ratio(value: number, baseline: number): number {
  return baseline > 0 && Number.isFinite(baseline) ? value / baseline : Number.NaN;
}

/**
 * The median of per-round ratios: each round's figure is divided by the baseline measured next to it, so
 * noise that hits both halves of a round (another process taking the CPU) cancels out before rounds are
 * combined.
 */
export function medianRatio(values: readonly number[], baselines: readonly number[]): number {
  if (values.length !== baselines.length) throw new RangeError('one baseline per value is required');
  const ratios = values.map((value, index) => ratio(value, baselines[index] ?? Number.NaN));
  return ratios.some(Number.isNaN) ? Number.NaN : median(ratios);
}

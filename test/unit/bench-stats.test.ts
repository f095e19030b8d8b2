import { median, medianRatio, quantile, ratio, summarize } from '../../bench/stats.js';

describe('bench statistics', () => {
  it('interpolates quantiles between the closest ranks, whatever the input order', () => {
    const samples = [40, 10, 30, 20];
    expect(quantile(samples, 0)).toBe(10);
    expect(quantile(samples, 1)).toBe(40);
    expect(quantile(samples, 0.5)).toBe(25);
    expect(quantile(samples, 0.25)).toBeCloseTo(17.5);
    expect(samples).toEqual([40, 10, 30, 20]);
  });

  it('puts p99 of 1..100 just below the maximum and p50 in the middle', () => {
    const samples = Array.from({ length: 100 }, (_, index) => index + 1);
    expect(summarize(samples)).toEqual({ count: 100, p50: 50.5, p99: 99.01, max: 100 });
    expect(quantile([7], 0.99)).toBe(7);
  });

  it('answers NaN for no samples and refuses a quantile outside [0, 1]', () => {
    expect(median([])).toBeNaN();
    expect(summarize([])).toEqual({ count: 0, p50: NaN, p99: NaN, max: NaN });
    expect(() => quantile([1], 1.5)).toThrow(RangeError);
  });

  it('never reads a missing or zero baseline as a win', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(3, 0)).toBeNaN();
    expect(ratio(3, Number.NaN)).toBeNaN();
  });

  it('pairs each round with its own baseline before taking the median', () => {
    // Round 2 ran on a machine twice as slow; pairing cancels that out.
    expect(medianRatio([110, 220, 99], [100, 200, 100])).toBeCloseTo(1.1);
    expect(medianRatio([1, 2], [1, 0])).toBeNaN();
    expect(() => medianRatio([1, 2], [1])).toThrow(RangeError);
  });
});

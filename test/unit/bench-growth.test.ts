import { growthLine, growthMet, measuredLines } from '../../bench/growth.js';

const units = { work: 'attempts', cost: 'sync wall ms' };

describe('bench cost growth', () => {
  it('judges every step from one size to the next, in work order whatever the input order', () => {
    const line = growthLine('attempts sync', units, [
      { label: '10k', work: 10_000, cost: 11_000 },
      { label: '1k', work: 1_000, cost: 1_000 },
      { label: '100k', work: 100_000, cost: 143_000 },
    ]);
    expect(line.points.map((point) => point.label)).toEqual(['1k', '10k', '100k']);
    expect(line.steps.map(({ from, to }) => `${from} -> ${to}`)).toEqual(['1k -> 10k', '10k -> 100k']);
    expect(line.steps[0]).toMatchObject({ workGrowth: 10, costGrowth: 11 });
    expect(line.steps[0]?.ratio).toBeCloseTo(1.1);
    expect(line.steps[1]?.ratio).toBeCloseTo(1.3);
    expect(line.worst).toBeCloseTo(1.3);
    expect(growthMet(line)).toBe(false);
  });

  it('meets the target at 1.2x and at linear or better growth', () => {
    const point = (work: number, cost: number) => ({ label: `${work}`, work, cost });
    expect(growthMet(growthLine('j', units, [point(20, 100), point(100, 600)]))).toBe(true);
    expect(growthMet(growthLine('j', units, [point(20, 100), point(100, 400)]))).toBe(true);
    expect(growthMet(growthLine('j', units, [point(20, 100), point(100, 601)]))).toBe(false);
  });

  it('never passes a line with a broken point, and leaves out lines with a single size', () => {
    const broken = growthLine('j', units, [
      { label: 'a', work: 1, cost: 0 },
      { label: 'b', work: 2, cost: 5 },
    ]);
    expect(broken.worst).toBeNaN();
    expect(growthMet(broken)).toBe(false);
    const single = growthLine('j', units, [{ label: 'a', work: 1, cost: 1 }]);
    expect(measuredLines([single, undefined, broken])).toEqual([broken]);
  });
});

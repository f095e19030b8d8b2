import { execFileSync } from 'node:child_process';
import { loadConfig } from '../../src/config.js';

/**
 * The peak old generation, MB, of a fresh process that keeps about 30 MB alive while it allocates ten times that,
 * after limitHeapGrowth(percent).
 */
function peakOldSpaceMb(percent: number): number {
  const script = `
    import v8 from 'node:v8';
    import { limitHeapGrowth } from './src/temporal/heap-growth.ts';
    limitHeapGrowth(${percent});
    const old = () => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_size;
    const kept = [];
    let peak = 0;
    for (let round = 0; round < 300; round++) {
      kept.push(Array.from({ length: 2e4 }, (_, i) => ({ i, s: 'x' + i, t: [i] })));
      if (kept.length > 20) kept.shift();
      peak = Math.max(peak, old());
    }
    process.stdout.write(String(peak / 2 ** 20));`;
  return Number(
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    }),
  );
}

describe("a worker's heap growth", () => {
  it('defaults to 50 % past the live heap, 0 leaving V8 its own factor', () => {
    const percent = (env: Record<string, string>) =>
      loadConfig({ BANKFLOW_ENV: 'development', ...env }).temporal.heapGrowingPercent;
    expect(percent({})).toBe(50);
    expect(percent({ WORKER_HEAP_GROWING_PERCENT: '0' })).toBe(0);
    expect(() => percent({ WORKER_HEAP_GROWING_PERCENT: '-1' })).toThrow(/WORKER_HEAP_GROWING_PERCENT: /);
  });

  it("keeps the main thread's old generation near what it holds, where V8's own factor lets it grow", () => {
    const limited = peakOldSpaceMb(50);
    const own = peakOldSpaceMb(0);
    expect(limited).toBeLessThan(own * 0.7);
  }, 120_000);
});

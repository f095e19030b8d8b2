import { runOpenLoop, throughputOf, type PacingClock } from '../../bench/pacing.js';

/**
 * A clock that only moves when the pacer sleeps or a test advances it. Time passes after the sleeper yields,
 * as with a real timer, so answers already due are recorded at the instant they came.
 */
function fakeClock(sleepOvershootMs = 0) {
  let now = 0;
  const sleeps: number[] = [];
  const clock: PacingClock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms);
      await Promise.resolve();
      now += ms + sleepOvershootMs;
    },
  };
  return { clock, sleeps, advance: (ms: number) => (now += ms), at: () => now };
}

describe('open-loop pacing', () => {
  it('sends each request at its scheduled instant and measures latency from that instant', async () => {
    const { clock, at } = fakeClock();
    const sentAt: number[] = [];
    const run = await runOpenLoop({
      ratePerSecond: 100,
      durationMs: 100,
      clock,
      send: async () => {
        sentAt.push(at());
        return true;
      },
    });
    expect(sentAt).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(run).toMatchObject({ offered: 10, ok: 10, failed: 0, maxLagMs: 0, elapsedMs: 100 });
    expect(run.latenciesMs).toEqual(Array(10).fill(0));
    expect(throughputOf(run)).toBe(100);
  });

  it('keeps sending on schedule while earlier requests are still unanswered', async () => {
    const { clock, advance } = fakeClock();
    const answers: ((ok: boolean) => void)[] = [];
    const running = runOpenLoop({
      ratePerSecond: 50,
      durationMs: 100,
      clock,
      send: () => new Promise<boolean>((resolve) => answers.push(resolve)),
    });
    await new Promise((resolve) => setImmediate(resolve));
    // All five went out although none was answered: the target's slowness does not slow the sender.
    expect(answers).toHaveLength(5);
    advance(500);
    answers.forEach((answer, index) => answer(index !== 2));
    const run = await running;
    expect(run).toMatchObject({ offered: 5, ok: 4, failed: 1 });
    expect(run.latenciesMs).toEqual([580, 560, 520, 500]);
    expect(run.elapsedMs).toBe(580);
  });

  it('charges a late generator to the latency and catches up instead of drifting', async () => {
    const { clock, sleeps, at } = fakeClock(7);
    const sentAt: number[] = [];
    const run = await runOpenLoop({
      ratePerSecond: 100,
      durationMs: 50,
      clock,
      send: async () => {
        sentAt.push(at());
        return true;
      },
    });
    // Each sleep overshoots by 7 ms; later sends come sooner so the average rate holds.
    expect(sentAt).toEqual([0, 17, 27, 37, 47]);
    expect(sleeps).toEqual([10, 3, 3, 3]);
    expect(run.maxLagMs).toBe(7);
    expect(run.latenciesMs).toEqual([0, 7, 7, 7, 7]);
  });

  it('counts a rejected send as failed', async () => {
    const { clock } = fakeClock();
    const run = await runOpenLoop({
      ratePerSecond: 10,
      durationMs: 300,
      clock,
      send: async (index) => {
        if (index === 1) throw new Error('connection reset');
        return true;
      },
    });
    expect(run).toMatchObject({ offered: 3, ok: 2, failed: 1 });
  });
});

import { setTimeout as sleep } from 'node:timers/promises';

export interface PacingClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: PacingClock = {
  now: () => performance.now(),
  sleep: (ms) => sleep(ms),
};

export interface OpenLoopOptions {
  ratePerSecond: number;
  durationMs: number;
  /** Sends request `index`; resolves true when it was acknowledged, false (or rejects) when it failed. */
  send(index: number): Promise<boolean>;
  clock?: PacingClock;
}

export interface OpenLoopRun {
  offered: number;
  ok: number;
  failed: number;
  /** From each request's scheduled time to its answer, for acknowledged requests only. */
  latenciesMs: number[];
  /** From the first scheduled send to the last answer, and never shorter than the offered duration. */
  elapsedMs: number;
  /**
   * The furthest the generator fell behind its schedule; large values mean the generator, not the target,
   * lagged.
   */
  maxLagMs: number;
}

/**
 * Offers `ratePerSecond` requests for `durationMs`, each at its scheduled instant whether or not earlier ones
 * were answered (open loop), so a slow target meets the same load a real sender would put on it. Latency runs
 * from the scheduled instant, so time a request spent waiting for a late generator counts (no coordinated
 * omission).
 */
export async function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopRun> {
  const clock = options.clock ?? realClock;
  const total = Math.floor((options.ratePerSecond * options.durationMs) / 1000);
  const intervalMs = 1000 / options.ratePerSecond;
  const latenciesMs: number[] = [];
  let ok = 0;
  let failed = 0;
  let maxLagMs = 0;
  const start = clock.now();
  let lastAnswer = start;
  const inFlight: Promise<void>[] = [];

  for (let index = 0; index < total; index++) {
    const due = start + index * intervalMs;
    const wait = due - clock.now();
    // Timers are coarse: a wait under a millisecond is sent at once, and a late start catches up on later
    // sends.
    if (wait >= 1) await clock.sleep(wait);
    maxLagMs = Math.max(maxLagMs, clock.now() - due);
    const answered = (acknowledged: boolean) => {
      const at = clock.now();
      lastAnswer = Math.max(lastAnswer, at);
      if (acknowledged) {
        ok++;
        latenciesMs.push(at - due);
      } else failed++;
    };
    inFlight.push(options.send(index).then(answered, () => answered(false)));
  }
  await Promise.all(inFlight);
  return {
    offered: total,
    ok,
    failed,
    latenciesMs,
    elapsedMs: Math.max(lastAnswer - start, options.durationMs),
    maxLagMs,
  };
}

/** Acknowledged requests per second over the run. */
export const throughputOf = (run: OpenLoopRun): number => (run.ok * 1000) / run.elapsedMs;

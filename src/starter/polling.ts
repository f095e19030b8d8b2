import { setTimeout as sleep } from 'node:timers/promises';

/** How a caller reading a workflow spaces its reads: doubling from `firstMs` up to `maxMs`. */
export interface ReadPacing {
  firstMs: number;
  maxMs: number;
}

const defaultPacing: ReadPacing = { firstMs: 50, maxMs: 1_000 };

/** Calls `check` with a growing pause between calls until it answers something other than undefined. */
export async function untilAnswered<T>(
  check: () => Promise<T | undefined>,
  pacing: ReadPacing = defaultPacing,
): Promise<T> {
  let interval = pacing.firstMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined) return answer;
    await sleep(interval);
    interval = Math.min(interval * 2, pacing.maxMs);
  }
}

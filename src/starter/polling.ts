import { setTimeout as sleep } from 'node:timers/promises';

const firstCheckAfterMs = 50;
const maxCheckIntervalMs = 1_000;

/** Calls `check` with a growing pause between calls until it answers something other than undefined. */
export async function untilAnswered<T>(check: () => Promise<T | undefined>): Promise<T> {
  let interval = firstCheckAfterMs;
  for (;;) {
    const answer = await check();
    if (answer !== undefined) return answer;
    await sleep(interval);
    interval = Math.min(interval * 2, maxCheckIntervalMs);
  }
}

import { setTimeout as sleep } from 'node:timers/promises';

/** Asks `check` every `everyMs` until it answers something, or fails naming `what` it waited for. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined>,
  { timeoutMs, everyMs = 250 }: { timeoutMs: number; everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= deadline) throw new Error(`gave up waiting ${timeoutMs / 1000} s for ${what}`);
    await sleep(everyMs);
  }
}

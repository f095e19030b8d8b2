import type { FastifyInstance } from 'fastify';
import { sendError } from './errors.js';

export interface SandboxRateLimit {
  /** Bank calls the sandbox answers per second, all endpoints together; more are answered 429. */
  requestsPerSecond: number;
  /**
   * Calls a quiet client may send at once before the limit bites; two seconds' worth by default, since a
   * client paced by Temporal's task-queue limit sends each of the queue's partitions' first calls together.
   */
  burst?: number;
}

export interface RateLimitCounts {
  admitted: number;
  refused: number;
  /** Calls admitted in each whole second of wall-clock time (epoch seconds), the last ten minutes' worth. */
  admittedBySecond: Map<number, number>;
}

const secondsKept = 600;

/**
 * A token bucket over every bank call, like a provider's per-client limit: a refused call is answered 429
 * with the whole seconds until a token is back in `Retry-After`, in the family's error form.
 */
export function limitBankRequests(
  app: FastifyInstance,
  limit: SandboxRateLimit,
  isBankPath: (url: string) => boolean,
): RateLimitCounts {
  const capacity = Math.max(1, limit.burst ?? 2 * limit.requestsPerSecond);
  const counts: RateLimitCounts = { admitted: 0, refused: 0, admittedBySecond: new Map() };
  let tokens = capacity;
  let refilledAt = performance.now();
  app.addHook('onRequest', async (request, reply) => {
    if (!isBankPath(request.url) || reply.sent) return;
    const now = performance.now();
    tokens = Math.min(capacity, tokens + ((now - refilledAt) / 1000) * limit.requestsPerSecond);
    refilledAt = now;
    if (tokens >= 1) {
      tokens -= 1;
      counts.admitted++;
      const second = Math.floor(Date.now() / 1000);
      counts.admittedBySecond.set(second, (counts.admittedBySecond.get(second) ?? 0) + 1);
      // Seconds arrive in order, so the first key is the oldest.
      if (counts.admittedBySecond.size > secondsKept) {
        counts.admittedBySecond.delete(counts.admittedBySecond.keys().next().value!);
      }
      return;
    }
    counts.refused++;
    reply.header('retry-after', String(Math.ceil((1 - tokens) / limit.requestsPerSecond)));
    await sendError(reply, 429, 'RATE_LIMITED', `more than ${limit.requestsPerSecond} requests per second`);
  });
  return counts;
}

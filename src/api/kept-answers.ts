import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { IdempotencyScope } from './idempotency.js';
import { ApiProblem } from './problems.js';

/**
 * How many answers one API process keeps, and how long: a client repeats a request within minutes, and a
 * device's answer is a few hundred bytes, so the store stays a few MB whatever the requests.
 */
export const keptAnswerLimits = { entries: 10_000, ttlMs: 24 * 60 * 60_000 };

interface Kept {
  /** SHA-256 of the parsed request the answer was given to. */
  request: string;
  answer: Promise<unknown>;
}

/**
 * The answers this process gave to POSTs that start nothing in Temporal (a device at the bank), by
 * Idempotency-Key: a repeat of the same request gets the first answer without asking the bank again, and the
 * key sent with another request is a 409. Temporal keeps what every other POST needs (docs/decisions.md,
 * "Idempotency keys"); another process of a fleet asks the bank again, whose find-or-create answers the same
 * device and creates nothing.
 */
export class KeptAnswers {
  private readonly kept = new LRUCache<string, Kept>({
    max: keptAnswerLimits.entries,
    ttl: keptAnswerLimits.ttlMs,
  });

  /**
   * The answer kept for the scope's key, or `ask()`'s, kept once it succeeds; concurrent repeats share it.
   */
  async answer<T>(scope: IdempotencyScope, request: unknown, ask: () => Promise<T>): Promise<T> {
    const digest = createHash('sha256').update(JSON.stringify(request)).digest('base64url');
    const kept = this.kept.get(scope.hash);
    if (kept && kept.request !== digest)
      throw new ApiProblem(
        409,
        'idempotency-key-reused',
        'Idempotency-Key reused',
        'this Idempotency-Key was sent with another request: send a new key for a new request',
        [{ field: 'Idempotency-Key', reason: 'was first sent with another body' }],
      );
    if (kept) return (await kept.answer) as T;
    const answer = ask();
    this.kept.set(scope.hash, { request: digest, answer });
    try {
      return await answer;
    } catch (error) {
      // A failed request is not an answer: the same key asks the bank again.
      if (this.kept.get(scope.hash)?.answer === answer) this.kept.delete(scope.hash);
      throw error;
    }
  }
}

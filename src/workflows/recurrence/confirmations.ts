import type { PendingConfirmation } from '../../contract/recurrence.js';
import { isFinalAttemptStatus, reachedAttemptStatus } from './attempt-table.js';

/** How long the workflow follows an attempt whose webhook the bank's GET does not confirm. */
export const attemptConfirmationDeadlineMs = 30 * 60_000;
const firstWaitMs = 1_000;
const maxWaitMs = 60_000;

export type ConfirmationOutcome = 'confirmed' | 'waiting' | 'expired';

/**
 * The attempts webhooks announced that the bank's GET has yet to confirm. A webhook is only a hint to read
 * the attempt: the workflow takes what the GET answers, and reads again with backoff while the GET shows less
 * than the webhook claimed (or does not know the attempt yet), until it shows that much or a final status, or
 * the deadline passes.
 */
export class AttemptConfirmations {
  private readonly pending: Map<string, PendingConfirmation>;

  constructor(carried: PendingConfirmation[] = []) {
    this.pending = new Map(carried.map((confirmation) => [confirmation.id, { ...confirmation }]));
  }

  /** A webhook says attempt `id` is `claimed`: read it now. */
  announce(id: string, claimed: string, now: number): void {
    const known = this.pending.get(id);
    this.pending.set(id, {
      id,
      claimed: known && reachedAttemptStatus(known.claimed, claimed) ? known.claimed : claimed,
      since: known?.since ?? now,
      nextAt: now,
      waitMs: firstWaitMs,
    });
  }

  due(now: number): string[] {
    return [...this.pending.values()].filter((pending) => pending.nextAt <= now).map((pending) => pending.id);
  }

  /** When the next read is due; undefined when nothing waits. */
  nextAt(): number | undefined {
    const times = [...this.pending.values()].map((pending) => pending.nextAt);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** The bank's GET answered `status` for `id` (undefined: it does not know the attempt, yet). */
  settle(id: string, status: string | undefined, now: number): ConfirmationOutcome {
    const pending = this.pending.get(id);
    if (!pending) return 'confirmed';
    if (
      status !== undefined &&
      (isFinalAttemptStatus(status) || reachedAttemptStatus(status, pending.claimed))
    ) {
      this.pending.delete(id);
      return 'confirmed';
    }
    if (now + pending.waitMs > pending.since + attemptConfirmationDeadlineMs) {
      this.pending.delete(id);
      return 'expired';
    }
    pending.nextAt = now + pending.waitMs;
    pending.waitMs = Math.min(2 * pending.waitMs, maxWaitMs);
    return 'waiting';
  }

  /** The webhook named an attempt that is not this recurrence's. */
  drop(id: string): void {
    this.pending.delete(id);
  }

  ids(): string[] {
    return [...this.pending.keys()];
  }

  list(): PendingConfirmation[] {
    return [...this.pending.values()].map((pending) => ({ ...pending }));
  }
}

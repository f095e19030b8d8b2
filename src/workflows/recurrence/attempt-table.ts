import type { ArchivedAttempts, AttemptSource, RecurrenceAttempt } from '../../contract/recurrence.js';

/** `moved`: applied, and the attempt is new or its status changed; `applied`: only its timestamp moved on. */
export type AttemptUpdateOutcome = 'moved' | 'applied' | 'duplicate' | 'stale';

/** Only `created` moves on (the sandbox's state machine); an unknown status sits between. */
const finalStatuses = new Set(['settled', 'failed', 'cancelled']);
const rank = (status: string) => (status === 'created' ? 0 : finalStatuses.has(status) ? 2 : 1);

export const isFinalAttemptStatus = (status: string) => rank(status) === 2;

/** Whether an attempt in `status` has come at least as far as one in `other`. */
export const reachedAttemptStatus = (status: string, other: string) => rank(status) >= rank(other);

/**
 * Which of two reports of the same attempt is newer: the further status first, then the later timestamp. Zero
 * only for the same status at the same time; a different status at the same rank and time keeps the first.
 */
function compare(update: TimedAttempt, known: TimedAttempt): number {
  const byRank = rank(update.attempt.status) - rank(known.attempt.status);
  if (byRank !== 0) return byRank;
  const byTime = update.at - known.at;
  if (byTime !== 0) return byTime;
  return update.attempt.status === known.attempt.status ? 0 : -1;
}

/** Newest first: the later timestamp, then the greater id. */
function newerFirst(a: TimedAttempt, b: TimedAttempt): number {
  return b.at - a.at || (a.attempt.id < b.attempt.id ? 1 : a.attempt.id > b.attempt.id ? -1 : 0);
}

/** An attempt with its timestamp parsed once: sorting and archiving compare it at every signal. */
interface TimedAttempt {
  attempt: RecurrenceAttempt;
  at: number;
}

const timed = (attempt: RecurrenceAttempt): TimedAttempt => ({ attempt, at: Date.parse(attempt.timestamp) });

/**
 * The attempts of one recurrence, deduplicated by attempt id + status + timestamp: the same report through
 * the sync and a webhook counts once, and an older status never overwrites a newer one. To keep what
 * continue-as-new carries bounded, only the newest `maxKept` attempts stay listed; older final ones are
 * folded into `archived`, and a final report no newer than the archive's watermark is taken as one of those.
 */
export class AttemptTable {
  private readonly byId: Map<string, TimedAttempt>;
  /** `archived.through` parsed, for the string it was parsed from. */
  private archivedThrough: { through: string | null; at: number } = { through: null, at: -Infinity };

  constructor(
    attempts: RecurrenceAttempt[],
    readonly archived: ArchivedAttempts,
    private readonly maxKept: number,
  ) {
    this.byId = new Map(attempts.map((attempt) => [attempt.id, timed(attempt)]));
  }

  /** Applies a batch, then archives what exceeds the limit. */
  applyAll(updates: RecurrenceAttempt[], source: AttemptSource): AttemptUpdateOutcome[] {
    const outcomes = updates.map((update) => this.apply(update, source));
    this.trim();
    return outcomes;
  }

  private apply(update: RecurrenceAttempt, source: AttemptSource): AttemptUpdateOutcome {
    const known = this.byId.get(update.id);
    const incoming = timed({ ...update, sources: [source] });
    if (!known) {
      if (this.isArchived(incoming)) return 'duplicate';
      this.byId.set(update.id, incoming);
      return 'moved';
    }
    const order = compare(incoming, known);
    if (order < 0) return 'stale';
    if (order === 0) {
      if (!known.attempt.sources.includes(source)) known.attempt.sources.push(source);
      return 'duplicate';
    }
    this.byId.set(update.id, incoming);
    return incoming.attempt.status === known.attempt.status ? 'applied' : 'moved';
  }

  private isArchived({ attempt, at }: TimedAttempt): boolean {
    return rank(attempt.status) === 2 && at <= this.archivedThroughAt();
  }

  private archivedThroughAt(): number {
    const { through } = this.archived;
    if (this.archivedThrough.through !== through) {
      this.archivedThrough = { through, at: through === null ? -Infinity : Date.parse(through) };
    }
    return this.archivedThrough.at;
  }

  private trim(): void {
    const excess = this.byId.size - this.maxKept;
    if (excess <= 0) return;
    const oldestFinal = [...this.byId.values()]
      .filter(({ attempt }) => rank(attempt.status) === 2)
      .sort(newerFirst)
      .reverse()
      .slice(0, excess);
    for (const archiving of oldestFinal) {
      const { attempt } = archiving;
      this.byId.delete(attempt.id);
      this.archived.count++;
      this.archived.byStatus[attempt.status] = (this.archived.byStatus[attempt.status] ?? 0) + 1;
      if (this.archived.through === null || archiving.at > this.archivedThroughAt()) {
        this.archived.through = attempt.timestamp;
        this.archivedThrough = { through: attempt.timestamp, at: archiving.at };
      }
    }
  }

  /** Listed attempts, newest first. */
  list(): RecurrenceAttempt[] {
    return [...this.byId.values()].sort(newerFirst).map(({ attempt }) => attempt);
  }

  /** The newest listed attempt, as `list()[0]` without sorting them all. */
  latest(): RecurrenceAttempt | undefined {
    let newest: TimedAttempt | undefined;
    for (const candidate of this.byId.values()) {
      if (!newest || newerFirst(candidate, newest) < 0) newest = candidate;
    }
    return newest?.attempt;
  }

  /** Every attempt known, listed or archived, by its current status. */
  countByStatus(): Record<string, number> {
    const counts: Record<string, number> = { ...this.archived.byStatus };
    for (const { attempt } of this.byId.values()) counts[attempt.status] = (counts[attempt.status] ?? 0) + 1;
    return counts;
  }

  get size(): number {
    return this.byId.size + this.archived.count;
  }
}

/** The model's base clock for `updated_at`: each new version of a record is one second later. */
const base = Date.parse('2030-01-01T12:00:00.000Z');
export const versionTime = (version: number) => new Date(base + version * 1_000).toISOString();

/**
 * A bank record's versions, newest last, and a read lag counted in reads: after a change made with lag k, the
 * next k reads answer the version before it. Counting reads instead of time keeps each case deterministic.
 */
export class RecordHistory<T extends { status: string }> {
  readonly versions: T[] = [];
  /**
   * Every status the bank's answers to the workflow carried, in order: a read the sandbox altered carries a
   * status the record never had (`under_review`), a read it refused or cut short none.
   */
  readonly shown: string[] = [];
  private staleReads = 0;

  get latest(): T | undefined {
    return this.versions.at(-1);
  }

  push(record: T, lag: number): void {
    this.versions.push(record);
    this.staleReads = this.versions.length > 1 ? lag : 0;
  }

  /** The record as a read finds it now; what the answer carries is noted once it is known (`show`). */
  current(): T | undefined {
    if (this.staleReads > 0) {
      this.staleReads--;
      return this.versions.at(-2);
    }
    return this.latest;
  }

  /** Notes a record the bank answered with (a read, or the answer to a write). */
  show<R extends { status: string } | undefined>(record: R): R {
    if (record) this.shown.push(record.status);
    return record;
  }
}

import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import { compareKeys, keyOf, type KeyedRecord } from './pagination.js';

/**
 * The bank's collection attempts by id, with their list order (timestamp, then id) kept beside them, so a
 * page of the attempts list is a binary search and a slice rather than a sort of every attempt: with 100,000
 * attempts the sort made the sandbox, not its client, the bottleneck of a sync. The order is rebuilt on the
 * first read after a change; code that changes a stored attempt's timestamp in place calls `touched()`.
 */
export class AttemptStore extends Map<string, CollectionAttempt> {
  private ordered: KeyedRecord<CollectionAttempt>[] | undefined;

  override set(id: string, attempt: CollectionAttempt): this {
    this.ordered = undefined;
    return super.set(id, attempt);
  }

  override delete(id: string): boolean {
    this.ordered = undefined;
    return super.delete(id);
  }

  override clear(): void {
    this.ordered = undefined;
    super.clear();
  }

  touched(): void {
    this.ordered = undefined;
  }

  /** Every attempt in the list's order, as it is now. */
  inListOrder(): readonly KeyedRecord<CollectionAttempt>[] {
    this.ordered ??= [...this.values()]
      .map((record) => ({ record, key: keyOf(record.timestamp, record.id) }))
      .sort((a, b) => compareKeys(a.key, b.key));
    return this.ordered;
  }
}

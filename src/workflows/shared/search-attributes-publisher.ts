import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';

/** A Keyword attribute's value, or a KeywordList's (an empty list removes the attribute). */
export type KeywordValue = SearchAttributeUpdatePair & { value: string | string[] };

/**
 * Upserts only the search attributes whose value changed since this run last set them: every upsert is an
 * event in the history, and a workflow that re-publishes its state after each unchanged poll would grow it
 * for nothing.
 */
export class SearchAttributesPublisher {
  private readonly published = new Map<string, string>();

  publish(values: KeywordValue[]): void {
    const changed = values.filter(({ key, value }) => this.published.get(key.name) !== JSON.stringify(value));
    if (changed.length === 0) return;
    upsertSearchAttributes(changed);
    for (const { key, value } of changed) this.published.set(key.name, JSON.stringify(value));
  }
}

import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { upsertSearchAttributes } from '@temporalio/workflow';

export type KeywordValue = SearchAttributeUpdatePair & { value: string };

/**
 * Upserts only the search attributes whose value changed since this run last set them: every upsert is an event in
 * the history, and a workflow that re-publishes its state after each unchanged poll would grow it for nothing.
 */
export class SearchAttributesPublisher {
  private readonly published = new Map<string, string>();

  publish(values: KeywordValue[]): void {
    const changed = values.filter(({ key, value }) => this.published.get(key.name) !== value);
    if (changed.length === 0) return;
    upsertSearchAttributes(changed);
    for (const { key, value } of changed) this.published.set(key.name, value);
  }
}

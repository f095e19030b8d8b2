import { upsertMemo, workflowInfo } from '@temporalio/workflow';

export interface MemoEntry {
  key: string;
  /** Left out of the memo while undefined. */
  value: unknown;
}

/**
 * Upserts the entries whose value differs from what the memo holds: every upsert is an event in the history,
 * so an unchanged value costs nothing. Values are copied, so that later changes to the workflow's objects are
 * seen as changes.
 */
export function publishToMemo(entries: MemoEntry[]): void {
  const published = workflowInfo().memo ?? {};
  const changed = entries.flatMap(({ key, value }) => {
    if (value === undefined) return [];
    const json = JSON.stringify(value);
    return JSON.stringify(published[key]) === json ? [] : [[key, JSON.parse(json) as unknown] as const];
  });
  if (changed.length === 0) return;
  upsertMemo(Object.fromEntries(changed));
}

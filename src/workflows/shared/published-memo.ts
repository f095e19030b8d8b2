import { patched, upsertMemo, workflowInfo } from '@temporalio/workflow';

/**
 * The memo keys under which a workflow publishes what its callers read: the journey's state, the outcome once
 * there is one, and the answers to merchant requests. Callers read them with `describe()`, never with a query. A
 * worker new to a workflow answers a query from every event in the history, including events no workflow task
 * has committed yet; it keeps the run it built, and the next workflow task then records commands in an order a
 * replay does not reproduce (docs/reliability.md). The memo only changes when a workflow task completes, so what a
 * caller reads is committed, and reading it involves no worker at all.
 */
export const memoKeys = {
  state: 'bankflowState',
  outcome: 'bankflowOutcome',
  replies: 'bankflowReplies',
  /** What the start committed the workflow to (starter/start-terms.ts), set by the starter; workflows never change it. */
  terms: 'bankflowTerms',
  /** The event an unmatched-webhook workflow keeps, set by the receiver when it starts one. */
  event: 'bankflowEvent',
} as const;

export interface MemoEntry {
  key: string;
  /** Left out of the memo while undefined. */
  value: unknown;
}

/** Workflows started before the memo existed record no memo changes in the part of their history already written. */
const memoPatch = 'published-memo';

/**
 * Upserts the entries whose value differs from what the memo holds: every upsert is an event in the history, so an
 * unchanged value costs nothing. Values are copied, so that later changes to the workflow's objects are seen as
 * changes.
 */
export function publishToMemo(entries: MemoEntry[]): void {
  const published = workflowInfo().memo ?? {};
  const changed = entries.flatMap(({ key, value }) => {
    if (value === undefined) return [];
    const json = JSON.stringify(value);
    return JSON.stringify(published[key]) === json ? [] : [[key, JSON.parse(json) as unknown] as const];
  });
  if (changed.length === 0 || !patched(memoPatch)) return;
  upsertMemo(Object.fromEntries(changed));
}

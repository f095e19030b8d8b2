import { upsertMemo, workflowInfo } from '@temporalio/workflow';

/**
 * The memo keys under which a workflow publishes what its callers read with no worker running: the journey's
 * state, the outcome once there is one, and the answer it gave its start (which a start repeated after the
 * workflow ended reads). Callers read them with `describe()`, which the server answers from committed state; a
 * query could make a worker new to the workflow build it from events no workflow task has committed
 * (docs/reliability.md). Requests that change the journey are updates (shared/merchant-requests.ts).
 */
export const memoKeys = {
  state: 'bankflowState',
  outcome: 'bankflowOutcome',
  replies: 'bankflowReplies',
  /** What the start committed the workflow to (shared/start-terms.ts), set by the starter; workflows never change it. */
  terms: 'bankflowTerms',
  /** The event an unmatched-webhook workflow keeps, set by the receiver when it starts one. */
  event: 'bankflowEvent',
} as const;

export interface MemoEntry {
  key: string;
  /** Left out of the memo while undefined. */
  value: unknown;
}

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
  if (changed.length === 0) return;
  upsertMemo(Object.fromEntries(changed));
}

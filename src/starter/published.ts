import type { WorkflowHandle } from '@temporalio/client';
import type { QueryDefinition } from '@temporalio/common';
import { memoKeys } from '../workflows/shared/published-memo.js';

/** What a workflow published for its callers, as of its last completed workflow task. */
export interface Published {
  /** The run's status, e.g. RUNNING or COMPLETED. */
  status: string;
  memo: Partial<Record<(typeof memoKeys)[keyof typeof memoKeys], unknown>>;
}

/**
 * Reads a workflow's published memo with `describe()`, which no worker answers: a query could make a worker new to
 * the workflow build it from events no workflow task has committed (workflows/shared/published-memo.ts).
 */
export async function readPublished(handle: WorkflowHandle): Promise<Published> {
  const { status, memo } = await handle.describe();
  return { status: status.name, memo: memo ?? {} };
}

/** The workflow's state from its memo; a workflow started before bankflow published it there is queried. */
export async function readState<State>(
  handle: WorkflowHandle,
  legacyQuery: QueryDefinition<State>,
): Promise<State> {
  const { memo } = await readPublished(handle);
  return (memo[memoKeys.state] as State | undefined) ?? handle.query(legacyQuery);
}

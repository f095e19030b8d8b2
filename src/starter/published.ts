import type { WorkflowHandle } from '@temporalio/client';
import { z } from 'zod';
import { memoKeys, type MerchantReply, type StartTerms } from '../contract/journeys.js';

/** What a workflow published for its callers, as of its last completed workflow task. */
export interface Published {
  /** The run's status, e.g. RUNNING or COMPLETED. */
  status: string;
  memo: Record<string, unknown>;
  /** What its start committed it to; absent for workflows started before starts recorded their terms. */
  terms?: StartTerms;
}

const termsSchema = z.record(z.string(), z.unknown());

/**
 * Reads a workflow's published memo with `describe()`, which no worker answers: a query could make a worker
 * new to the workflow build it from events no workflow task has committed (docs/reliability.md).
 */
export async function readPublished(handle: WorkflowHandle): Promise<Published> {
  const { status, memo = {} } = await handle.describe();
  const terms = termsSchema.safeParse(memo[memoKeys.terms]);
  return { status: status.name, memo, ...(terms.success ? { terms: terms.data } : {}) };
}

const replySchema = <T>(value: z.ZodType<T>) =>
  z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), reason: z.string(), type: z.string().optional() }),
  ]);

/**
 * The answer a workflow kept for its start, checked against the answer's schema; undefined when it has none.
 */
export function startReplyFrom<T>(published: Published, answer: z.ZodType<T>): MerchantReply<T> | undefined {
  const replies = z.object({ start: replySchema(answer) }).safeParse(published.memo[memoKeys.replies]);
  return replies.success ? replies.data.start : undefined;
}

/** The workflow's state from its memo, which its start sets, checked against its schema. */
export async function readState<State>(handle: WorkflowHandle, schema: z.ZodType<State>): Promise<State> {
  const { memo } = await readPublished(handle);
  return schema.parse(memo[memoKeys.state]);
}

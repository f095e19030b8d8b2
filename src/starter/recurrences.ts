import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { z } from 'zod';
import { maxCollectionAttemptPageSize } from '../bank/schemas/collection-attempt.js';
import { dateTime } from '../bank/schemas/common.js';
import { formatReais } from '../money.js';
import {
  generateRecurrenceRequestSchema,
  type GenerateRecurrenceRequest,
  type Recurrence,
} from '../bank/schemas/recurrence.js';
import { jobIds } from '../contract/jobs.js';
import { workflowIds } from '../contract/ids.js';
import { printable } from '../bank/schemas/printable.js';
import {
  initialRecurrenceSummary,
  maxCancelReasonLength,
  recurrenceWorkflowType,
  sensitiveRecurrenceTerms,
  type RecurrenceResult,
  type RecurrenceWorkflow,
  type RecurrenceSettings,
  type RecurrenceState,
} from '../contract/recurrence.js';
import {
  cancelRecurrenceUpdate,
  recurrenceGeneratedUpdate,
  recurrenceStateQuery,
  searchAttributes,
} from '../contract/temporal.js';
import { answered, memoKeys, refused, flattenTerms, failureTypes } from '../contract/journeys.js';
import {
  attemptsSyncWorkflowType,
  type AttemptsSyncSummary,
  type AttemptsSyncWorkflow,
} from '../contract/attempts-sync.js';
import type { StarterContext } from './context.js';
import { idempotencyKey } from './idempotency.js';
import { askWorkflow, requestId, startOrJoin } from './merchant-requests.js';
import { recurrenceStartSchema } from './published-state.js';
import { untilAnswered } from './polling.js';
import { parseInput } from './errors.js';

const recurrenceSettings = z.object({
  maxHistoryEvents: z.number().int().min(20).optional(),
  maxAttemptsKept: z.number().int().positive().optional(),
  maxRunMs: z.number().int().positive().optional(),
});

/** What `startRecurrence` answers. */
export interface StartedRecurrence {
  workflowId: string;
  externalId: string;
  recurrence: Recurrence;
  /** Present when the recurrence's workflow had already ended: its final result. Nothing was started. */
  result?: RecurrenceResult;
}

/**
 * Generates a Pix recurrence through `recurrence:<external_id>` and answers, in one round trip, the bank's
 * recurrence. The request is checked field by field before anything starts (`counterparty.tax_number: must be
 * 11 (CPF) or 14 (CNPJ) digits`). Starting again with the same external_id and the same request joins the
 * workflow; any other member is a StartTermsConflictError naming it. Once the workflow ended, the same
 * request answers the recurrence with its final `result`, and nothing starts again. The workflow follows the
 * recurrence's collection attempts; read them with `getRecurrence`.
 */
export async function startRecurrence(
  ctx: StarterContext,
  request: GenerateRecurrenceRequest,
): Promise<StartedRecurrence> {
  return startTunedRecurrence(ctx, request, {});
}

/**
 * `startRecurrence` with the workflow's history limits tuned, for bankflow's own tests that make a recurrence
 * continue as new within a few attempts. Not part of the starter's public API.
 */
export async function startTunedRecurrence(
  ctx: StarterContext,
  request: GenerateRecurrenceRequest,
  settings: RecurrenceSettings,
): Promise<StartedRecurrence> {
  const parsed = parseInput(generateRecurrenceRequestSchema, request);
  const parsedSettings = parseInput(recurrenceSettings, settings);
  const workflowId = workflowIds.recurrence(parsed.external_id);
  const amount = parsed.amounts?.minimum ?? parsed.first_payment?.amount;
  const handle = ctx.client.workflow.getHandle<RecurrenceWorkflow>(workflowId);
  const { external_id: externalId, ...terms } = parsed;
  const { answer, ended } = await startOrJoin(ctx, {
    update: recurrenceGeneratedUpdate,
    workflowType: recurrenceWorkflowType,
    workflowId,
    input: { request: parsed, settings: parsedSettings },
    initialState: initialRecurrenceSummary(externalId),
    terms: flattenTerms(terms),
    sensitiveTerms: sensitiveRecurrenceTerms,
    summary: `Pix recurrence (${parsed.periodicity}${amount ? `, ${formatReais(amount)}` : ''}) of ${parsed.counterparty.name}`,
    searchAttributes: [
      { key: searchAttributes.kind, value: 'recurrence' },
      { key: searchAttributes.externalId, value: externalId },
    ],
    keptAnswer: ({ memo }) => {
      const published = recurrenceStartSchema.safeParse(memo[memoKeys.state]);
      if (!published.success) return undefined;
      const { recurrence, phase, reason } = published.data;
      if (recurrence) return answered(recurrence);
      return phase === 'refused'
        ? refused(reason ?? 'the bank refused the recurrence', failureTypes.recurrenceRefused)
        : undefined;
    },
  });
  return {
    workflowId,
    externalId,
    recurrence: answer,
    ...(ended ? { result: await handle.result() } : {}),
  };
}

export const recurrenceKey = z.object({ externalId: z.string().min(1).max(100) });

/**
 * Where a recurrence stands: the bank's record and status, and its attempts with their latest statuses. The
 * only read that asks the workflow itself, with a query, because its attempt table is too large for the memo.
 * It asks only while no workflow task is pending: a worker that does not hold the workflow answers a query
 * from every event of the history, including events a pending task has not committed yet, and keeps what it
 * built (docs/reliability.md).
 */
export async function getRecurrence(
  ctx: StarterContext,
  input: { externalId: string },
): Promise<RecurrenceState> {
  const { externalId } = parseInput(recurrenceKey, input);
  const handle = ctx.client.workflow.getHandle(workflowIds.recurrence(externalId));
  return untilAnswered(async () => {
    const { status, raw } = await handle.describe();
    if (status.name === 'RUNNING' && raw.pendingWorkflowTask) return undefined;
    return handle.query(recurrenceStateQuery);
  });
}

export const cancelInput = recurrenceKey.extend({
  // A pattern, not a refine, so the API's document states the rule.
  reason: printable
    .max(maxCancelReasonLength)
    .regex(/\S/, 'required, a non-empty text saying why')
    .describe(
      `Why the recurrence is no longer followed: up to ${maxCancelReasonLength} characters, not blank`,
    ),
  requestId,
});

/**
 * Cancels a recurrence: its workflow stops following the collection attempts and ends, and the answer is its
 * result, `outcome: 'stopped'` with the reason. The bank's API has no call that cancels a recurrence, so the
 * recurrence at the bank keeps its status: stop the collections with the bank by its own channel. A blank or
 * too long reason is refused naming `reason`; a recurrence that has ended is a RequestRefusedError. Without a
 * `requestId`, the reason is the key, so the same cancel sent twice is one request.
 */
export async function cancelRecurrence(
  ctx: StarterContext,
  input: z.input<typeof cancelInput>,
): Promise<RecurrenceResult> {
  const { externalId, reason, requestId: id } = parseInput(cancelInput, input);
  const handle = ctx.client.workflow.getHandle<RecurrenceWorkflow>(workflowIds.recurrence(externalId));
  return askWorkflow(ctx, handle, id ?? `cancel-${idempotencyKey(reason)}`, (updateId) =>
    handle.executeUpdate(cancelRecurrenceUpdate, { updateId, args: [{ reason }] }),
  );
}

const attemptsSyncInput = z
  .object({
    from: dateTime,
    to: dateTime,
    pageSize: z.number().int().min(1).max(maxCollectionAttemptPageSize).optional(),
    pagesPerRun: z.number().int().positive().optional(),
  })
  .refine((window) => Date.parse(window.from) < Date.parse(window.to), {
    path: ['to'],
    message: 'must be later than from',
  });
export type AttemptsSyncRequest = z.input<typeof attemptsSyncInput>;

/**
 * Syncs the collection attempts of the window [from, to) into the recurrence workflows and waits for the
 * summary. A sync of the same window still running is joined rather than started twice.
 */
export async function runAttemptsSync(
  ctx: StarterContext,
  input: AttemptsSyncRequest,
): Promise<AttemptsSyncSummary> {
  const parsed = parseInput(attemptsSyncInput, input);
  const from = new Date(parsed.from).toISOString();
  const to = new Date(parsed.to).toISOString();
  const handle = await ctx.client.workflow.start<AttemptsSyncWorkflow>(attemptsSyncWorkflowType, {
    workflowId: workflowIds.attemptsSync(from, to),
    taskQueue: ctx.taskQueue,
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    args: [{ ...parsed, from, to }],
    staticSummary: `Collection attempts sync from ${from} to ${to}`,
    typedSearchAttributes: [{ key: searchAttributes.kind, value: jobIds.attemptsSync }],
  });
  return handle.result();
}

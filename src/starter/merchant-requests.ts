import { randomUUID } from 'node:crypto';
import {
  WithStartWorkflowOperation,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  ApplicationFailure,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  type SearchAttributePair,
  type UpdateDefinition,
} from '@temporalio/common';
import {
  startReplyId,
  type MerchantReply,
  type MerchantRequestDefinition,
} from '../workflows/shared/merchant-requests.js';
import { memoKeys } from '../workflows/shared/published-memo.js';
import type { StarterContext } from './context.js';
import { untilAnswered } from './polling.js';
import { readPublished } from './published.js';
import { differingTerms, sameTerm, StartTermsConflictError, type StartTerms } from './start-terms.js';

/** The workflow answered the request with a refusal, e.g. the step it needs is over. */
export class RequestRefusedError extends Error {
  constructor(
    readonly workflowId: string,
    reason: string,
    /** The kind of refusal where callers may act on it, e.g. `EnrollmentNotAuthorized`. */
    readonly type?: string,
  ) {
    super(reason);
    this.name = 'RequestRefusedError';
  }
}

/** No answer came in time; the workflow may still carry the request out, so read its state before repeating it. */
export class RequestTimedOutError extends Error {
  constructor(
    readonly workflowId: string,
    timeoutMs: number,
  ) {
    super(`${workflowId} did not answer within ${timeoutMs / 1000} s; read its state before asking again`);
    this.name = 'RequestTimedOutError';
  }
}

export const defaultReplyTimeoutMs = 60_000;
const replyPacing = { firstMs: 10, maxMs: 250 };

const endedMessage = (workflowId: string, status: string) =>
  `${workflowId} has ended (${status.toLowerCase()}) and takes no more requests`;

const timeoutOf = (ctx: StarterContext) => ctx.replyTimeoutMs ?? defaultReplyTimeoutMs;

/** Sends a request to a running workflow and waits for its answer. */
export async function askWorkflow<Payload, Answer>(
  ctx: StarterContext,
  handle: WorkflowHandle,
  request: MerchantRequestDefinition<Payload, Answer>,
  payload: Payload,
): Promise<Answer> {
  const requestId = randomUUID();
  try {
    await handle.signal(request.signal, { ...payload, requestId });
  } catch (error) {
    // Signalling a closed workflow fails as if it did not exist; say which it is.
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    const ended = await handle.describe().catch(() => undefined);
    if (!ended) throw error;
    throw new RequestRefusedError(handle.workflowId, endedMessage(handle.workflowId, ended.status.name));
  }
  return awaitReply<Answer>(ctx, handle, requestId);
}

/**
 * Waits for the workflow's answer to `requestId`, published in its memo (workflows/shared/published-memo.ts): its
 * value, or a RequestRefusedError with the workflow's reason.
 */
export async function awaitReply<Answer>(
  ctx: StarterContext,
  handle: WorkflowHandle,
  requestId: string,
): Promise<Answer> {
  const timeoutMs = timeoutOf(ctx);
  const deadline = Date.now() + timeoutMs;
  const reply = await untilAnswered(async () => {
    const { status, memo } = await readPublished(handle);
    const replies = memo[memoKeys.replies] as Record<string, MerchantReply> | undefined;
    const read = replies?.[requestId];
    if (read) return read;
    if (status !== 'RUNNING')
      throw new RequestRefusedError(handle.workflowId, endedMessage(handle.workflowId, status));
    if (Date.now() >= deadline) throw new RequestTimedOutError(handle.workflowId, timeoutMs);
    return undefined;
  }, replyPacing);
  if (reply.ok) return reply.value as Answer;
  throw new RequestRefusedError(handle.workflowId, reply.reason, reply.type);
}

/** Reads the answer a running workflow keeps for the call that started it. */
export const startReply =
  <Answer>(ctx: StarterContext, handle: WorkflowHandle) =>
  () =>
    awaitReply<Answer>(ctx, handle, startReplyId);

/**
 * A workflow to start with its first question: the update it answers in its first task, and what it is started
 * with. Its initial state and its terms go into the memo at once, so a running workflow without a state was started
 * before bankflow published state there (`readState`), and one without terms before starts were compared.
 */
export interface FirstQuestion<Input, Answer> {
  update: UpdateDefinition<Answer, []>;
  workflow: (input: Input) => Promise<unknown>;
  workflowId: string;
  input: Input;
  initialState: unknown;
  /** What this start commits the workflow to; a start with other terms neither joins nor starts anything. */
  terms: StartTerms;
  /** Terms holding personal data: a conflict names them without their values. */
  sensitiveTerms?: readonly string[];
  /**
   * The term whose new value starts a new run once the previous one ended, e.g. a re-enrollment's external id.
   * Without it, or with the same value, an ended workflow is answered, never started again.
   */
  newRunTerm?: string;
  summary: string;
  searchAttributes: SearchAttributePair[];
}

/** What a start got: the workflow's answer, and whether that workflow had already ended (nothing was started). */
export interface StartOutcome<Answer> {
  answer: Answer;
  ended: boolean;
}

async function startWithQuestion<Input, Answer>(
  ctx: StarterContext,
  question: FirstQuestion<Input, Answer>,
  workflowIdReusePolicy: WorkflowIdReusePolicy,
): Promise<Answer> {
  try {
    return await ctx.client.workflow.executeUpdateWithStart(question.update, {
      startWorkflowOperation: new WithStartWorkflowOperation(question.workflow, {
        workflowId: question.workflowId,
        taskQueue: ctx.taskQueue,
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.FAIL,
        workflowIdReusePolicy,
        args: [question.input],
        memo: { [memoKeys.state]: question.initialState, [memoKeys.terms]: question.terms },
        staticSummary: question.summary,
        typedSearchAttributes: question.searchAttributes,
      }),
    });
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError && error.cause) {
      const { cause } = error;
      throw new RequestRefusedError(
        question.workflowId,
        cause.message,
        cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined,
      );
    }
    throw error;
  }
}

/** Whether a start may follow an ended run with a new one: its `newRunTerm` differs from the ended run's. */
function startsNewRun(
  question: Pick<FirstQuestion<unknown, unknown>, 'newRunTerm' | 'terms'>,
  recorded: StartTerms | undefined,
): boolean {
  const { newRunTerm } = question;
  if (newRunTerm === undefined || recorded === undefined) return false;
  return !sameTerm(recorded[newRunTerm], question.terms[newRunTerm]);
}

/**
 * Starts a workflow with its first question, an update accepted in the workflow's first task (never later: see
 * workflows/shared/merchant-requests.ts). When the workflow id is taken, the terms the first start recorded are
 * compared with this start's: other terms are a StartTermsConflictError; the same terms `join` the workflow, running
 * or ended. An ended workflow is never started again (REJECT_DUPLICATE), unless `newRunTerm` changed. A refusal is a
 * RequestRefusedError.
 */
export async function startOrJoin<Input, Answer>(
  ctx: StarterContext,
  question: FirstQuestion<Input, Answer>,
  join: () => Promise<Answer>,
): Promise<StartOutcome<Answer>> {
  let reusePolicy: WorkflowIdReusePolicy = WorkflowIdReusePolicy.REJECT_DUPLICATE;
  for (;;) {
    try {
      return { answer: await startWithQuestion(ctx, question, reusePolicy), ended: false };
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
    const { status, memo } = await readPublished(ctx.client.workflow.getHandle(question.workflowId));
    const recorded = memo[memoKeys.terms] as StartTerms | undefined;
    const ended = status !== 'RUNNING';
    if (ended && reusePolicy !== WorkflowIdReusePolicy.ALLOW_DUPLICATE && startsNewRun(question, recorded)) {
      reusePolicy = WorkflowIdReusePolicy.ALLOW_DUPLICATE;
      continue;
    }
    // Workflows started before starts recorded their terms are joined as they always were.
    const differences = recorded ? differingTerms(recorded, question.terms, question.sensitiveTerms) : [];
    if (differences.length > 0) throw new StartTermsConflictError(question.workflowId, differences);
    return { answer: await join(), ended };
  }
}

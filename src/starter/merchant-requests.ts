import { randomUUID } from 'node:crypto';
import { printable } from '../bank/schemas/printable.js';
import {
  WithStartWorkflowOperation,
  WorkflowFailedError,
  WorkflowUpdateFailedError,
  WorkflowUpdateRPCTimeoutOrCancelledError,
  isGrpcServiceError,
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
  failureTypes,
  differingTerms,
  sameTerm,
  startTermsConflict,
  type StartTerms,
  memoKeys,
  type MerchantReply,
} from '../contract/journeys.js';
import type { StarterContext } from './context.js';
import { idempotencyKey } from './idempotency.js';
import { readPublished, type Published } from './published.js';
import { StartTermsConflictError } from './start-terms.js';

/**
 * How a caller may try a failed request again: `retryable` says whether asking again may get another answer,
 * `sameId` whether to ask under the same id (joining what the first request started) or a new one.
 */
export interface RetryAdvice {
  readonly retryable: boolean;
  readonly sameId: boolean;
}

/** The workflow refused the request, e.g. the step it needs is over, or the workflow has ended. */
export class RequestRefusedError extends Error implements RetryAdvice {
  /** The same request gets the same refusal: it is no use asking again. */
  readonly retryable: boolean = false;
  readonly sameId: boolean = false;

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

/**
 * The bank could not be reached within the window the customer waits in, and the journey ended without
 * anything created at the bank for it: start again under a new id once the bank is back. Its `type` is
 * `BankUnreachable`.
 */
export class BankUnreachableError extends RequestRefusedError {
  override readonly retryable = true;

  constructor(workflowId: string, reason: string) {
    super(workflowId, reason, failureTypes.bankUnreachable);
    this.name = 'BankUnreachableError';
  }
}

/** The refusal `type` names: a BankUnreachableError for `BankUnreachable`, else a RequestRefusedError. */
const refusalError = (workflowId: string, reason: string, type: string | undefined) =>
  type === failureTypes.bankUnreachable
    ? new BankUnreachableError(workflowId, reason)
    : new RequestRefusedError(workflowId, reason, type);

/**
 * No answer came in time. The workflow may still carry the request out: ask again with the same id (the
 * request id, or a start's external id) to get its answer rather than a second request.
 */
export class RequestTimedOutError extends Error implements RetryAdvice {
  readonly retryable = true;
  readonly sameId = true;

  constructor(
    readonly workflowId: string,
    timeoutMs: number,
    idName = 'request id',
  ) {
    super(`${workflowId} did not answer within ${timeoutMs / 1000} s; ask again with the same ${idName}`);
    this.name = 'RequestTimedOutError';
  }
}

export const defaultReplyTimeoutMs = 60_000;

const endedMessage = (workflowId: string, status: string) =>
  `${workflowId} has ended (${status.toLowerCase()}) and takes no more requests`;

/** The gRPC status of a call that ran past the context's deadline. */
const grpcDeadlineExceeded = 4;

const isDeadline = (error: unknown) =>
  error instanceof WorkflowUpdateRPCTimeoutOrCancelledError ||
  (isGrpcServiceError(error) && error.code === grpcDeadlineExceeded);

/** A refusal as the caller sees it: the failure the workflow's validator or handler threw. */
function refusalOf(workflowId: string, error: WorkflowUpdateFailedError): RequestRefusedError {
  const { cause } = error;
  const type = cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
  return refusalError(workflowId, cause?.message ?? error.message, type);
}

/**
 * Sends a request to a running workflow as the update `send` names, under `requestId`: the same id asked
 * again gets the first answer, not a second request. Waits for the answer up to the context's
 * `replyTimeoutMs`.
 */
export async function askWorkflow<Answer>(
  ctx: StarterContext,
  handle: WorkflowHandle,
  requestId: string,
  send: (updateId: string) => Promise<Answer>,
): Promise<Answer> {
  const timeoutMs = ctx.replyTimeoutMs ?? defaultReplyTimeoutMs;
  try {
    return await ctx.client.withDeadline(Date.now() + timeoutMs, () => send(requestId));
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) throw refusalOf(handle.workflowId, error);
    if (isDeadline(error)) throw new RequestTimedOutError(handle.workflowId, timeoutMs);
    // An update to a closed workflow fails as if the workflow did not exist; say which it is.
    if (!(error instanceof WorkflowNotFoundError)) throw error;
    const ended = await handle.describe().catch(() => undefined);
    if (!ended) throw error;
    throw new RequestRefusedError(handle.workflowId, endedMessage(handle.workflowId, ended.status.name));
  }
}

/**
 * The caller's idempotency key for a request to a running workflow: the same key asked again gets the first
 * answer instead of a second request.
 */
export const requestId = printable.min(1).max(200).optional();

/** The request id a caller gave, or a new one: a request without an id is never taken for a repeat. */
const requestIdOr = (requestId: string | undefined) => requestId ?? randomUUID();

/**
 * Asks a running workflow for fresh options (`update`); each call asks the bank anew unless it repeats
 * `requestId`.
 */
export function askForOptions(
  ctx: StarterContext,
  handle: WorkflowHandle,
  update: UpdateDefinition<string, []>,
  requestId: string | undefined,
): Promise<string> {
  return askWorkflow(ctx, handle, requestIdOr(requestId), (updateId) =>
    handle.executeUpdate(update, { updateId }),
  );
}

/**
 * Sends the customer's assertion to a running workflow (`update`). Without a `requestId` the assertion itself
 * is the key, so the same assertion sent twice is one request, named `<step>-<digest>`.
 */
export function sendAssertion<Assertion, Answer>(
  ctx: StarterContext,
  handle: WorkflowHandle,
  update: UpdateDefinition<Answer, [{ assertion: Assertion }]>,
  step: string,
  request: { assertion: Assertion; requestId?: string },
): Promise<Answer> {
  const { assertion } = request;
  const id = request.requestId ?? `${step}-${idempotencyKey(assertion)}`;
  return askWorkflow(ctx, handle, id, (updateId) =>
    handle.executeUpdate(update, { updateId, args: [{ assertion }] }),
  );
}

/**
 * A workflow to start with its first question: the update it answers once the journey's first bank call is
 * done, and what it is started with.
 */
export interface FirstQuestion<Input, Answer> {
  update: UpdateDefinition<Answer, [StartTerms]>;
  /** The workflow type to start, e.g. `paymentWorkflowType`. */
  workflowType: string;
  workflowId: string;
  input: Input;
  initialState: unknown;
  /** What this start commits the workflow to; a start with other terms neither joins nor starts anything. */
  terms: StartTerms;
  /** Terms holding personal data: a conflict names them without their values. */
  sensitiveTerms?: readonly string[];
  /**
   * The term whose new value starts a new run once the previous one ended, e.g. a re-enrollment's external
   * id. Without it, or with the same value, an ended workflow is answered, never started again.
   */
  newRunTerm?: string;
  summary: string;
  searchAttributes: SearchAttributePair[];
  /** The answer the workflow kept for its start, from what it published, running or ended. */
  keptAnswer: (published: Published) => MerchantReply<Answer> | undefined;
}

/**
 * What a start got: the workflow's answer, and whether that workflow had already ended (nothing was started).
 */
export interface StartOutcome<Answer> {
  answer: Answer;
  ended: boolean;
}

/** The conflict a start with other terms meets, naming each differing term. */
async function termsConflict(
  ctx: StarterContext,
  question: Pick<FirstQuestion<unknown, unknown>, 'workflowId' | 'terms' | 'sensitiveTerms'>,
  published?: Published,
): Promise<StartTermsConflictError> {
  const { terms } = published ?? (await readPublished(ctx.client.workflow.getHandle(question.workflowId)));
  return new StartTermsConflictError(
    question.workflowId,
    differingTerms(terms ?? {}, question.terms, question.sensitiveTerms),
  );
}

/**
 * Starts the workflow, or joins the running one, with its first question as an update-with-start. The
 * workflow computes its start's answer once and gives it to every start with the same terms; its validator
 * refuses other terms. Each start is an update of its own: an update id repeated on an ended workflow would
 * be answered from that run without saying it ended.
 */
async function startOrAsk<Input, Answer>(
  ctx: StarterContext,
  question: FirstQuestion<Input, Answer>,
  workflowIdReusePolicy: WorkflowIdReusePolicy,
): Promise<Answer> {
  const timeoutMs = ctx.replyTimeoutMs ?? defaultReplyTimeoutMs;
  try {
    return await ctx.client.withDeadline(Date.now() + timeoutMs, () =>
      startWithQuestion(ctx, question, workflowIdReusePolicy),
    );
  } catch (error) {
    if (isDeadline(error)) throw new RequestTimedOutError(question.workflowId, timeoutMs, 'id');
    if (!(error instanceof WorkflowUpdateFailedError)) throw error;
    const refusal = refusalOf(question.workflowId, error);
    throw refusal.type === startTermsConflict ? await termsConflict(ctx, question) : refusal;
  }
}

/** The update-with-start itself. */
function startWithQuestion<Input, Answer>(
  ctx: StarterContext,
  question: FirstQuestion<Input, Answer>,
  workflowIdReusePolicy: WorkflowIdReusePolicy,
): Promise<Answer> {
  return ctx.client.workflow.executeUpdateWithStart(question.update, {
    args: [question.terms],
    startWorkflowOperation: new WithStartWorkflowOperation<(input: Input) => Promise<unknown>>(
      question.workflowType,
      {
        workflowId: question.workflowId,
        taskQueue: ctx.taskQueue,
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
        workflowIdReusePolicy,
        args: [question.input],
        memo: { [memoKeys.state]: question.initialState, [memoKeys.terms]: question.terms },
        staticSummary: question.summary,
        typedSearchAttributes: question.searchAttributes,
      },
    ),
  });
}

/**
 * The server's answer to an update whose workflow closed before answering it, e.g. a payment that failed at
 * once because the bank refused its start: it says nothing of why, the run's published start reply does.
 */
const endedBeforeAnswering = (error: unknown) =>
  error instanceof RequestRefusedError && error.type === 'AcceptedUpdateCompletedWorkflow';

/**
 * Why a run failed before it published an answer to its start, e.g. the bank refused to create the payment:
 * the failure the workflow raised, which names the bank's reason.
 */
async function failureOf(handle: WorkflowHandle): Promise<{ reason: string; type?: string } | undefined> {
  const failed = await handle.result().then(
    () => undefined,
    (error: unknown) => (error instanceof WorkflowFailedError ? error.cause : undefined),
  );
  // An activity's failure wraps the bank's answer: the innermost failure says what the bank said.
  let cause: Error | undefined = failed;
  while (cause?.cause instanceof Error) cause = cause.cause;
  if (!cause) return undefined;
  const type = cause instanceof ApplicationFailure ? (cause.type ?? undefined) : undefined;
  return { reason: `${handle.workflowId} failed: ${cause.message}`, type };
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
 * Joins a running workflow that has answered its start, from what it published: a join with the same terms
 * gets the kept answer, one with other terms the conflict, and neither reaches the workflow, so no number of
 * joins grows its history. Undefined when there is no such workflow, or it has not answered its start yet:
 * the start, or a join while the bank creates what it asked for, is then an update-with-start.
 */
async function joinFromMemo<Input, Answer>(
  ctx: StarterContext,
  question: FirstQuestion<Input, Answer>,
): Promise<StartOutcome<Answer> | undefined> {
  const published = await readPublished(ctx.client.workflow.getHandle(question.workflowId)).catch(
    (error: unknown) => {
      if (error instanceof WorkflowNotFoundError) return undefined;
      throw error;
    },
  );
  if (published?.status !== 'RUNNING' || !published.terms) return undefined;
  const reply = question.keptAnswer(published);
  if (!reply) return undefined;
  if (differingTerms(published.terms, question.terms).length > 0)
    throw await termsConflict(ctx, question, published);
  if (reply.ok) return { answer: reply.value, ended: false };
  throw refusalError(question.workflowId, reply.reason, reply.type);
}

/**
 * Starts a workflow with its first question, or joins the running one with the same terms (other terms are a
 * StartTermsConflictError). An ended workflow is never started again (REJECT_DUPLICATE) unless `newRunTerm`
 * changed: with the same terms, the answer it kept for its start is read from its memo. A refusal is a
 * RequestRefusedError.
 */
export async function startOrJoin<Input, Answer>(
  ctx: StarterContext,
  question: FirstQuestion<Input, Answer>,
): Promise<StartOutcome<Answer>> {
  const joined = await joinFromMemo(ctx, question);
  if (joined) return joined;
  let reusePolicy: WorkflowIdReusePolicy = WorkflowIdReusePolicy.REJECT_DUPLICATE;
  for (;;) {
    try {
      return { answer: await startOrAsk(ctx, question, reusePolicy), ended: false };
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError) && !endedBeforeAnswering(error))
        throw error;
    }
    const published = await readPublished(ctx.client.workflow.getHandle(question.workflowId));
    if (published.status === 'RUNNING') continue;
    if (reusePolicy !== WorkflowIdReusePolicy.ALLOW_DUPLICATE && startsNewRun(question, published.terms)) {
      reusePolicy = WorkflowIdReusePolicy.ALLOW_DUPLICATE;
      continue;
    }
    // Workflows started before starts recorded their terms are answered as they always were.
    if (published.terms && differingTerms(published.terms, question.terms).length > 0)
      throw await termsConflict(ctx, question, published);
    const reply = question.keptAnswer(published);
    if (reply?.ok) return { answer: reply.value, ended: true };
    const failure =
      reply || published.status !== 'FAILED'
        ? undefined
        : await failureOf(ctx.client.workflow.getHandle(question.workflowId));
    throw refusalError(
      question.workflowId,
      reply?.reason ?? failure?.reason ?? endedMessage(question.workflowId, published.status),
      reply?.type ?? failure?.type,
    );
  }
}

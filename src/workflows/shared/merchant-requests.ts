import { ApplicationFailure } from '@temporalio/workflow';
import { memoKeys, type MemoEntry } from './published-memo.js';
import { failureTypes } from '../failure-types.js';

/**
 * A merchant's request to a running workflow is a Temporal update: its validator refuses what the journey cannot
 * take at that moment (no history is written), its handler does the work, and a refusal or a bank's "no" reaches
 * the caller as the update's failure. The update id is the caller's idempotency key, so a retried request gets
 * the first answer instead of being carried out twice (docs/reliability.md tells the experiment behind the choice).
 */

/** An answer as the memo keeps it: the start's answer. */
export type MerchantReply<T = unknown> =
  { ok: true; value: T } | { ok: false; reason: string; type?: string };

export const refused = (reason: string, type?: string): MerchantReply<never> => ({
  ok: false,
  reason,
  ...(type ? { type } : {}),
});
export const answered = <T>(value: T): MerchantReply<T> => ({ ok: true, value });

/**
 * A refusal of a merchant's request, thrown by a validator or handler. Its `type` names the kind of refusal where
 * callers may act on it, e.g. `EnrollmentNotAuthorized`; without one it is a plain `RequestRefused`.
 */
export const refusal = (
  message: string,
  type: string = failureTypes.requestRefused,
  details: unknown[] = [],
) => ApplicationFailure.create({ type, message, details, nonRetryable: true });

/** Refuses a request without the assertion it carries; the starter checks its shape before sending it. */
export function requireAssertion(request: { assertion?: unknown } | undefined): void {
  if (typeof request?.assertion !== 'object' || request.assertion === null)
    throw refusal("assertion: required, the object the browser's WebAuthn call returned");
}

/** The request id under which a workflow keeps the answer to the call that started it. */
export const startReplyId = 'start';

/** The reply a run hands to the next one: the start's answer under `startReplyId`. */
export type KeptReplies<Start> = { [startReplyId]?: MerchantReply<Start> };

/**
 * The answer a workflow gave its start, kept in its memo: a start repeated after the workflow ended reads it with
 * no worker running.
 */
export class MerchantReplies<Start> {
  private start: MerchantReply<Start> | undefined;

  /**
   * `onAnswer` publishes the replies (`memoEntry`) together with whatever else the workflow publishes; `kept` are
   * the replies a previous run gave, carried over by continue-as-new.
   */
  constructor(
    private readonly onAnswer: () => void,
    kept: KeptReplies<Start> = {},
  ) {
    this.start = kept[startReplyId];
  }

  /** The answer to the start, once there is one. */
  get startReply(): MerchantReply<Start> | undefined {
    return this.start;
  }

  /** The replies given so far, for the next run to keep. */
  all(): KeptReplies<Start> {
    return this.start ? { [startReplyId]: this.start } : {};
  }

  /** The replies as callers read them from the memo, by request id. */
  memoEntry(): MemoEntry {
    return { key: memoKeys.replies, value: this.all() };
  }

  /** Answers the start: the value its update returns, or the refusal it fails with. */
  answerStart(reply: MerchantReply<Start>): void {
    this.start = reply;
    this.onAnswer();
  }

  /** The start's answer, once there is one, as its update handler returns it; a refusal is thrown. */
  startAnswer(): Start {
    const reply = this.start;
    if (!reply) throw refusal('the workflow has not answered its start yet');
    if (!reply.ok) throw refusal(reply.reason, reply.type);
    return reply.value;
  }
}

import { ApplicationFailure } from '@temporalio/workflow';
import { failureTypes } from '../../contract/failure-types.js';
import type { KeptReplies, MerchantReply } from '../../contract/memo.js';

/**
 * A merchant's request to a running workflow is a Temporal update: its validator refuses what the journey
 * cannot take at that moment (no history is written), its handler does the work, and a refusal or a bank's
 * "no" reaches the caller as the update's failure. The update id is the caller's idempotency key, so a
 * retried request gets the first answer instead of being carried out twice.
 */

/**
 * A refusal of a merchant's request, thrown by a validator or handler. Its `type` names the kind of refusal
 * where callers may act on it, e.g. `EnrollmentNotAuthorized`; without one it is a plain `RequestRefused`.
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

/**
 * The answer a workflow gave its start, kept in its memo (`memoKeys.replies`): a start repeated after the
 * workflow ended reads it with no worker running, and continue-as-new carries it to the next run.
 */
export class StartReply<Start> {
  constructor(private reply: MerchantReply<Start> | undefined) {}

  get given(): boolean {
    return this.reply !== undefined;
  }

  set(reply: MerchantReply<Start>): void {
    this.reply = reply;
  }

  /** The replies as the memo and the next run keep them. */
  kept(): KeptReplies<Start> {
    return this.reply ? { start: this.reply } : {};
  }

  /** The start's answer, as its update handler returns it; a refusal is thrown. */
  answer(): Start {
    const reply = this.reply;
    if (!reply) throw refusal('the workflow has not answered its start yet');
    if (!reply.ok) throw refusal(reply.reason, reply.type);
    return reply.value;
  }
}

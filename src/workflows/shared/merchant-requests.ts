import type { SignalDefinition } from '@temporalio/common';
import { defineSignal } from '@temporalio/workflow';
import { memoKeys, type MemoEntry } from './published-memo.js';

/**
 * A merchant's request to a running workflow travels as a signal carrying `requestId`, and its answer is published
 * in the workflow's memo (`memoKeys.replies`). Signals rather than updates: an update accepted in the same workflow
 * task as another event (a poll's result, a timer) is replayed in a different order by the SDK and fails the
 * workflow task with a nondeterminism error (docs/decisions.md), while signals are events of the history like any
 * other.
 */
export interface MerchantRequest {
  /** Chosen by the caller; a repeated signal with the same id is answered once. */
  requestId: string;
}

/** A refusal's `type` names the kind of refusal where callers may act on it, e.g. `EnrollmentNotAuthorized`. */
export type MerchantReply<T = unknown> =
  { ok: true; value: T } | { ok: false; reason: string; type?: string };

/** A request a workflow takes as the signal `name` with a `Payload`, and answers with an `Answer`. */
export interface MerchantRequestDefinition<Payload, Answer> {
  signal: SignalDefinition<[Payload & MerchantRequest]>;
  /** Carries the answer's type to callers; never set. */
  answer?: Answer;
}

export function defineMerchantRequest<Payload, Answer>(
  name: string,
): MerchantRequestDefinition<Payload, Answer> {
  return { signal: defineSignal<[Payload & MerchantRequest]>(name) };
}

/** The request id under which a workflow keeps the answer to the call that started it. */
export const startReplyId = 'start';

/** How many answers a workflow keeps; a caller reads its answer within seconds of it being written. */
const keptReplies = 50;

/** The answers a workflow gave, each computed once per request id. */
export class MerchantReplies {
  private readonly replies = new Map<string, MerchantReply>();
  private readonly inProgress = new Set<string>();

  /**
   * `onAnswer` publishes the replies (`memoEntry`) together with whatever else the workflow publishes; `kept` are
   * the replies a previous run gave, carried over by continue-as-new.
   */
  constructor(
    private readonly onAnswer: () => void,
    kept: Record<string, MerchantReply> = {},
  ) {
    for (const [requestId, reply] of Object.entries(kept)) this.replies.set(requestId, reply);
  }

  /** The replies given so far, for the next run to keep. */
  all(): Record<string, MerchantReply> {
    return Object.fromEntries(this.replies);
  }

  /** The replies as callers read them from the memo, by request id. */
  memoEntry(): MemoEntry {
    return { key: memoKeys.replies, value: this.all() };
  }

  /** Whether some request is being worked on, e.g. so a workflow ends only once it answered. */
  get busy(): boolean {
    return this.inProgress.size > 0;
  }

  set<T>(requestId: string, reply: MerchantReply<T>): void {
    this.replies.delete(requestId);
    this.replies.set(requestId, reply);
    for (const oldest of this.replies.keys()) {
      if (this.replies.size <= keptReplies) break;
      this.replies.delete(oldest);
    }
    this.onAnswer();
  }

  /**
   * Computes the reply to a request unless it is already answered or in progress. Anything `work` throws becomes
   * a refusal with its message: a signal handler that threw would fail the workflow task, not answer the caller.
   */
  async answer<T>(requestId: string, work: () => Promise<MerchantReply<T>>): Promise<void> {
    if (this.replies.has(requestId) || this.inProgress.has(requestId)) return;
    this.inProgress.add(requestId);
    try {
      this.set(requestId, await work());
    } catch (error) {
      this.set(requestId, { ok: false, reason: error instanceof Error ? error.message : String(error) });
    } finally {
      this.inProgress.delete(requestId);
    }
  }
}

export const refused = (reason: string, type?: string): MerchantReply<never> => ({
  ok: false,
  reason,
  ...(type ? { type } : {}),
});
export const answered = <T>(value: T): MerchantReply<T> => ({ ok: true, value });

import { defineSignal, setHandler, type SignalDefinition } from '@temporalio/workflow';
import type { MerchantReplies } from './merchant-requests.js';

/**
 * Merchant requests as bankflow sent them before they were updates: a signal carrying a request id, answered in
 * the memo. Workflows recorded then replay these signals, so their handlers stay until no such workflow runs
 * (docs/upgrading-workflows.md); no caller sends them any more.
 */
type LegacyRequest<Payload> = SignalDefinition<[Payload & { requestId: string }]>;

export const legacyRequest = <Payload = object>(name: string): LegacyRequest<Payload> =>
  defineSignal<[Payload & { requestId: string }]>(name);

/**
 * Answers a legacy request the way an update is answered now: `validate` throws to refuse, `handle` does the work.
 */
export function answerLegacyRequest<Payload, Answer>(
  replies: MerchantReplies<unknown>,
  signal: LegacyRequest<Payload>,
  validate: (payload: Payload) => void,
  handle: (payload: Payload) => Promise<Answer>,
): void {
  setHandler(signal, (request) =>
    replies.answer(request.requestId, async () => {
      validate(request);
      return handle(request);
    }),
  );
}

/**
 * The memo keys under which a workflow publishes what its callers read with no worker running: the journey's
 * state, the outcome once there is one, and the answer it gave its start (which a start repeated after the
 * workflow ended reads). Callers read them with `describe()`, which the server answers from committed state;
 * a query could make a worker new to the workflow build it from events no workflow task has committed.
 */
export const memoKeys = {
  state: 'bankflowState',
  outcome: 'bankflowOutcome',
  replies: 'bankflowReplies',
  /**
   * What the start committed the workflow to (start-terms.ts), set by the starter; workflows never change it.
   */
  terms: 'bankflowTerms',
  /** The event an unmatched-webhook workflow keeps, set by the receiver when it starts one. */
  event: 'bankflowEvent',
} as const;

/** An answer as the memo keeps it under `memoKeys.replies`: the start's answer, or why it was refused. */
export type MerchantReply<T = unknown> =
  { ok: true; value: T } | { ok: false; reason: string; type?: string };

export const refused = (reason: string, type?: string): MerchantReply<never> => ({
  ok: false,
  reason,
  ...(type ? { type } : {}),
});
export const answered = <T>(value: T): MerchantReply<T> => ({ ok: true, value });

/** The memo's replies: the start's answer under `start`, carried to the next run by continue-as-new. */
export interface KeptReplies<Start> {
  start?: MerchantReply<Start>;
}

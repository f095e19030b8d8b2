import type { z } from 'zod';
import type { addedRulesSchema, FaultSettings } from '../../devkit/sandbox/faults.js';

/**
 * Shorter than a latency spike, so every spike is a timeout for the caller: the request still reaches the
 * bank after the caller gave up, and the retry races it. That is what proves creates and authorizes
 * idempotent.
 */
export const bankTimeoutMs = 2_500;

/**
 * The bank's misbehaviour for the whole run (issue 6: 20% of calls answered 500, webhooks 30% lost, 30%
 * twice), and a bank whose reads lag its webhooks, some of which name another resource: a workflow must end
 * only on what the bank's GET confirms.
 */
export function chaosFaults(seed: number): FaultSettings {
  return {
    seed,
    error_rate: 0.2,
    rate_limit_rate: 0,
    retry_after_seconds: 1,
    latency_ms: 0,
    latency_spike_rate: 0.05,
    latency_spike_ms: 3_000,
    fail_next: [],
    alter_next: [],
    webhook_drop_rate: 0.3,
    webhook_duplicate_rate: 0.3,
    webhook_reorder_rate: 0.2,
    webhook_reorder_max_hold_ms: 2_000,
    webhook_delay_rate: 0.5,
    webhook_delay_ms: 100,
    webhook_delay_jitter_ms: 1_500,
    webhook_foreign_id_rate: 0.05,
    get_lag_ms: 400,
  };
}

type AddedRules = z.input<typeof addedRulesSchema>;

/**
 * A credential rotation at the bank: every bank call, the merchant's own included, refused 401 for `forMs`.
 */
export const credentialRotation = (forMs: number): AddedRules => ({
  fail_next: [{ status: 401, for_ms: forMs }],
});

/** The reads of the records the journeys follow: enrollments listed and payments read. */
const journeyReadsPrefix = '/banking/cashin/pix/biometrics/';

/**
 * A schema drift at the bank: for `forMs` the journeys' reads answer each record in a status the spec does
 * not list and with a member it does not name, nested too. The attempts sync's pages are left as they are: a
 * sync keeps what a page says, where a journey reads its record again.
 */
export const schemaDrift = (forMs: number): AddedRules => ({
  alter_next: [
    { mode: 'unknown_status', path_prefix: journeyReadsPrefix, for_ms: forMs },
    { mode: 'unknown_member', nested: true, path_prefix: journeyReadsPrefix, for_ms: forMs },
  ],
});

/**
 * What the merchant passes to the workflows: quick polling once webhooks go quiet, and a short wait for the
 * Pix cash-in event, so journeys whose webhooks were dropped finish in seconds rather than minutes.
 */
export const journeyPolling = { firstPollAfterMs: 2_000, maxPollIntervalMs: 5_000 };
export const cashInWaitMs = 5_000;

/** How long one journey may take, retries included, before it counts as never finished. */
export const journeyDeadlineMs = 6 * 60_000;

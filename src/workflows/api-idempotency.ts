import { allHandlersFinished, condition, setHandler, sleep } from '@temporalio/workflow';
import {
  idempotencyKeyRetentionMs,
  recordFingerprintUpdate,
  type RequestFingerprint,
} from '../contract/api-idempotency.js';

/**
 * One Idempotency-Key of the merchant API: the first request's fingerprint, answered to every request under the
 * key for its retention, so any API process of a fleet compares a repeat with the first request without a store
 * of its own. It calls nothing: it ends when the retention does.
 */
export async function apiIdempotencyWorkflow(): Promise<void> {
  let recorded: RequestFingerprint | undefined;
  setHandler(recordFingerprintUpdate, (fingerprint) => {
    recorded ??= fingerprint;
    return recorded;
  });
  await sleep(idempotencyKeyRetentionMs);
  await condition(allHandlersFinished);
}

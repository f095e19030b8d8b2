import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import {
  idempotencyKeyRetentionMs,
  recordFingerprintUpdate,
  type IdempotencyKeyCarry,
  type RequestFingerprint,
} from '../contract/api-idempotency.js';
import { waitOnCurrentVersion, watchForNewVersion } from './shared/continue-as-new.js';

/**
 * One Idempotency-Key of the merchant API: the first request's fingerprint, answered to every request under the
 * key for its retention, so any API process of a fleet compares a repeat with the first request without a store
 * of its own. It calls nothing: it ends when the retention does. A new version of bankflow takes the key over by
 * continue-as-new (`carried`), its retention unchanged.
 */
export async function apiIdempotencyWorkflow(carried?: IdempotencyKeyCarry): Promise<void> {
  const newVersion = watchForNewVersion();
  let recorded: RequestFingerprint | undefined = carried?.recorded;
  setHandler(recordFingerprintUpdate, (fingerprint) => {
    recorded ??= fingerprint;
    return recorded;
  });
  const retainedUntil = carried?.retainedUntil ?? Date.now() + idempotencyKeyRetentionMs;
  await waitOnCurrentVersion<typeof apiIdempotencyWorkflow>(
    () => false,
    retainedUntil,
    newVersion,
    () => [{ recorded, retainedUntil }],
  );
  await condition(allHandlersFinished);
}

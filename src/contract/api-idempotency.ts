import { defineUpdate } from '@temporalio/workflow';

/** The workflow type that remembers what one API request under one Idempotency-Key asked (src/api/idempotency.ts). */
export const apiIdempotencyWorkflowType = 'apiIdempotencyWorkflow';
export type ApiIdempotencyWorkflow = (carried?: IdempotencyKeyCarry) => Promise<void>;

/** What a key's next run carries when it continues as new onto a new version of bankflow. */
export interface IdempotencyKeyCarry {
  recorded?: RequestFingerprint;
  /** When the key's retention ends (epoch ms), counted from its first run's start. */
  retainedUntil: number;
}

/**
 * What an API request asked, without what it said: a hash of its method and path, and one hash per field path of
 * its canonical body, so a later request under the same key can be compared field by field while no value (personal
 * data among them) is kept.
 */
export interface RequestFingerprint {
  request: string;
  fields: Record<string, string>;
}

/**
 * Records the fingerprint of the first request under the key, and answers every request with that first one. Sent
 * with the workflow's start (update-with-start), so the first request of a key starts it wherever it lands.
 */
export const recordFingerprintUpdate = defineUpdate<RequestFingerprint, [RequestFingerprint]>(
  'recordFingerprint',
);

/** How long a key is remembered: a request repeated later is taken as a new one (Stripe keeps keys 24 hours). */
export const idempotencyKeyRetentionMs = 24 * 60 * 60_000;

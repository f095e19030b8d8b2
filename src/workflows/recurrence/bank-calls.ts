import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { CollectionAttempt } from '../../bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../../bank/schemas/recurrence.js';
import { bankCallOptions, interactiveActivities, pollActivities } from '../activity-options.js';
import { failureTypes } from '../../contract/failure-types.js';

/** The merchant's request waits on the bank's answer. */
const bank = interactiveActivities<'generateRecurrence'>(bankCallOptions);

/** A read that keeps failing is tried again by the confirmation's own backoff, so the workflow never waits on it. */
const reads = pollActivities<'getCollectionAttempt'>({
  ...bankCallOptions,
  retry: { ...bankCallOptions.retry, maximumAttempts: 3 },
});

/** The bank's refusal as the failure the workflow ends with, naming the bank's failure type. */
function refusal(error: unknown): ApplicationFailure {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  const type =
    cause instanceof ApplicationFailure && cause.type ? cause.type : failureTypes.recurrenceNotGenerated;
  return ApplicationFailure.create({
    type: failureTypes.recurrenceRefused,
    message: `the bank did not generate the recurrence: ${cause?.message ?? String(error)}`,
    details: [
      { bankFailure: type, ...(cause instanceof ApplicationFailure ? { details: cause.details } : {}) },
    ],
    nonRetryable: true,
  });
}

/** Generates the recurrence with the merchant's full request: the bank's recurrence, or its refusal as a failure. */
export async function generateRecurrence(
  request: GenerateRecurrenceRequest,
): Promise<Recurrence | ApplicationFailure> {
  try {
    return await bank.generateRecurrence(request);
  } catch (error) {
    return refusal(error);
  }
}

/** The attempt as the bank's GET shows it; undefined while the bank does not answer it. */
export async function readAttempt(attemptId: string): Promise<CollectionAttempt | undefined> {
  try {
    return await reads.getCollectionAttempt(attemptId);
  } catch (error) {
    if (error instanceof ActivityFailure) return undefined;
    throw error;
  }
}

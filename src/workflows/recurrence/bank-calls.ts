import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
import type { CollectionAttempt } from '../../bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../../bank/schemas/recurrence.js';
import {
  bankCallOptions,
  boundedBy,
  customerWriteOptions,
  interactiveActivities,
  pollActivities,
} from '../activity-options.js';
import { failureTypes } from '../../contract/journeys.js';
import { recurrenceGenerationWindowMs } from '../../contract/recurrence.js';
import { readBank, type TroubleHolder } from '../shared/follow-bank.js';

/**
 * A read that keeps failing is tried again by the confirmation's own backoff, so the workflow never waits on
 * it.
 */
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

/**
 * Generates the recurrence with the merchant's full request, which waits on the answer: the bank's
 * recurrence, or its refusal as a failure. A refused credential and an unreadable answer are waited out like
 * an outage within the generation window (recurrenceGenerationWindowMs), then refuse the recurrence.
 */
export async function generateRecurrence(
  request: GenerateRecurrenceRequest,
): Promise<Recurrence | ApplicationFailure> {
  const bank = interactiveActivities<'generateRecurrence'>(
    boundedBy(customerWriteOptions, Date.now() + recurrenceGenerationWindowMs, Date.now()),
  );
  try {
    return await bank.generateRecurrence(request);
  } catch (error) {
    return refusal(error);
  }
}

/**
 * The attempt as the bank's GET shows it; undefined while the bank does not answer it, the trouble recorded
 * in `holder` (shared/follow-bank.ts) and `changed` called when it begins, changes or clears.
 */
export function readAttempt(
  holder: TroubleHolder,
  attemptId: string,
  changed: () => void,
): Promise<CollectionAttempt | undefined> {
  return readBank(holder, () => reads.getCollectionAttempt(attemptId), changed);
}

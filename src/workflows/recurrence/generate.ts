import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../../bank/schemas/recurrence.js';
import { bankCallOptions } from '../activity-options.js';
import type { RecurrenceRun } from './run.js';
import { failureTypes } from '../failure-types.js';

const bank = proxyActivities<Pick<Activities, 'generateRecurrence'>>(bankCallOptions);

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
 * Generates the recurrence at the bank with the merchant's full request. A refusal is published and, once the
 * handlers under way finish, ends the workflow.
 */
export async function generateAtBank(
  run: RecurrenceRun,
  request: GenerateRecurrenceRequest,
): Promise<Recurrence> {
  let recurrence: Recurrence;
  try {
    recurrence = await bank.generateRecurrence(request);
  } catch (error) {
    const failure = refusal(error);
    run.refused(failure);
    await condition(allHandlersFinished);
    throw failure;
  }
  run.generated(recurrence);
  return recurrence;
}

import { TimeoutType } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure, TimeoutFailure } from '@temporalio/workflow';
import { failureTypes } from '../../contract/failure-types.js';

/** The bank's refusal carried by a failed activity: its failure type (e.g. BankValidation) and message. */
export interface BankRefusal {
  type: string;
  message: string;
  details: unknown[];
}

/**
 * Reads a failed activity as a bank refusal when the bank answered with a final "no" (validation, conflict,
 * not found). Anything else (retries exhausted, cancellation, a bug) is not a refusal and is rethrown.
 */
export function bankRefusal(error: unknown, types: readonly string[]): BankRefusal {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  if (cause instanceof ApplicationFailure && cause.type && types.includes(cause.type)) {
    return { type: cause.type, message: cause.message, details: [...(cause.details ?? [])] };
  }
  throw error;
}

/** Refusals a merchant can act on by sending something else (another assertion, another attestation). */
export const correctableRefusals = ['BankValidation', 'BankRequestRejected', 'BankNotFound'] as const;

/**
 * Whether a bounded bank call (boundedBankCallOptions) failed because its window closed: Temporal stopped retrying
 * it at the deadline, or its last attempt began too late to be sent.
 */
export function windowClosed(error: unknown): boolean {
  const cause = error instanceof ActivityFailure ? error.cause : undefined;
  return (
    (cause instanceof TimeoutFailure && cause.timeoutType === TimeoutType.SCHEDULE_TO_CLOSE) ||
    (cause instanceof ApplicationFailure && cause.type === failureTypes.bankCallWindowClosed)
  );
}

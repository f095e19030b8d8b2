import { RetryState } from '@temporalio/common';
import { ActivityFailure, ApplicationFailure } from '@temporalio/workflow';
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
 * Whether a bounded bank call (boundedBy) failed because its window closed: Temporal stopped retrying it at
 * the deadline (its retry state is TIMEOUT, whether an attempt timed out or the next one would start too
 * late), or its last attempt began too late to be sent.
 */
export function windowClosed(error: unknown): boolean {
  if (!(error instanceof ActivityFailure)) return false;
  const { cause } = error;
  return (
    error.retryState === RetryState.TIMEOUT ||
    (cause instanceof ApplicationFailure && cause.type === failureTypes.bankCallWindowClosed)
  );
}

import { ApplicationFailure } from '@temporalio/common';
import { BankError, BankRateLimitedError, BankValidationError } from '../bank/errors.js';

/**
 * Turns a BankError into the ApplicationFailure Temporal retries by: the failure `type` is the BankError type,
 * non-retryable errors say so, and a 429's Retry-After becomes the next retry delay.
 */
export function toApplicationFailure(error: unknown): unknown {
  if (!(error instanceof BankError)) return error;
  const details: unknown[] = [
    { operation: error.context.operation, status: error.context.status, code: error.bankCode },
  ];
  if (error instanceof BankValidationError) details.push({ errors: error.errors });
  return ApplicationFailure.create({
    message: error.message,
    type: error.type,
    nonRetryable: !error.retryable,
    details,
    nextRetryDelay: error instanceof BankRateLimitedError ? error.retryAfterMs : undefined,
  });
}

/** The activities that are one bank call each, so the worker's metrics count bank calls and nothing else. */
const bankActivities = new WeakSet<object>();

/** Wraps an activity so the bank's failures reach Temporal as typed ApplicationFailures. */
export function bankActivity<Args extends unknown[], Result>(
  call: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  const activity = async (...args: Args) => {
    try {
      return await call(...args);
    } catch (error) {
      throw toApplicationFailure(error);
    }
  };
  bankActivities.add(activity);
  return activity;
}

/** The names of the activities `bankActivity` made. */
export function bankActivityNames(activities: Record<string, unknown>): Set<string> {
  return new Set(
    Object.entries(activities)
      .filter(([, activity]) => typeof activity === 'function' && bankActivities.has(activity))
      .map(([name]) => name),
  );
}

import { asyncLocalStorage } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { failureTypes } from '../contract/journeys.js';
import { BankError, BankRateLimitedError, BankValidationError } from '../bank/errors.js';

/**
 * Turns a BankError into the ApplicationFailure Temporal retries by: the failure `type` is the BankError
 * type, and a 429's Retry-After becomes the next retry delay. Whether a type is retried is the calling
 * workflow's retry policy's to say (`nonRetryableErrorTypes`, workflows/activity-options.ts), not the
 * failure's: the same 401 ends a background call but is waited out by a write a customer waits on, within its
 * window.
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
    details,
    nextRetryDelay: error instanceof BankRateLimitedError ? error.retryAfterMs : undefined,
  });
}

/** The activities that are one bank call each, so the worker's metrics count bank calls and nothing else. */
const bankActivities = new WeakSet<object>();

/**
 * Refuses an attempt that begins after its schedule-to-close deadline (it waited on a busy worker): Temporal
 * no longer waits for its answer, so a write it sent could land at the bank after the journey gave up on it.
 */
function checkWindowOpen(): void {
  const info = asyncLocalStorage.getStore()?.info;
  if (!info?.scheduleToCloseTimeoutMs) return;
  const deadline = info.scheduledTimestampMs + info.scheduleToCloseTimeoutMs;
  if (Date.now() < deadline) return;
  throw ApplicationFailure.create({
    type: failureTypes.bankCallWindowClosed,
    message: `${info.activityType}: its window closed at ${new Date(deadline).toISOString()}; not sent to the bank`,
    nonRetryable: true,
  });
}

/**
 * Wraps an activity so the bank's failures reach Temporal as typed ApplicationFailures, and an attempt whose
 * window already closed never reaches the bank.
 */
export function bankActivity<Args extends unknown[], Result>(
  call: (...args: Args) => Promise<Result>,
): (...args: Args) => Promise<Result> {
  const activity = async (...args: Args) => {
    checkWindowOpen();
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

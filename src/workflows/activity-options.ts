import type { ActivityOptions, RetryPolicy } from '@temporalio/workflow';
import { nonRetryableBankErrorTypes } from '../bank/errors.js';

/**
 * For work that fails only while something it needs is down (the bank, Temporal, the disk): from 1 s, doubling,
 * at most a minute apart, for as long as the activity's timeouts allow.
 */
export const outageRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
};

/** A single bank call: short timeout, retried with backoff while the bank is unavailable. */
export const bankCallOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { ...outageRetry, nonRetryableErrorTypes: nonRetryableBankErrorTypes },
};

/**
 * A read of a record the workflow follows (a GET, a list): retried sooner than a write, because a journey waits on
 * it, while the bank's own Retry-After still paces a rate-limited one.
 */
export const bankReadOptions: ActivityOptions = {
  startToCloseTimeout: '20 seconds',
  retry: { ...bankCallOptions.retry, maximumInterval: '10 seconds' },
};

/** A call to Temporal itself (schedules, the window cursor, other workflows): retried while the server is away. */
export const temporalCallOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: outageRetry,
};

import type { ActivityOptions } from '@temporalio/workflow';

/**
 * The failure types activities raise for answers that will not change on retry (bank/errors.ts). Kept as
 * literals here because workflow code cannot import the bank client.
 */
export const nonRetryableBankErrorTypes = [
  'BankUnauthorized',
  'BankValidation',
  'BankNotFound',
  'BankRequestRejected',
  'BankInvalidResponse',
];

/** A single bank call: short timeout, retried with backoff while the bank is unavailable. */
export const bankCallOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: nonRetryableBankErrorTypes,
  },
};

/**
 * A read of a record the workflow follows (a GET, a list): retried sooner than a write, because a journey waits on
 * it, while the bank's own Retry-After still paces a rate-limited one.
 */
export const bankReadOptions: ActivityOptions = {
  startToCloseTimeout: '20 seconds',
  retry: { ...bankCallOptions.retry, maximumInterval: '10 seconds' },
};

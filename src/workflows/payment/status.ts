import type { BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';
import type { FinalPaymentStatus } from '../../contract/payment.js';

const rank: Record<BiometricPaymentStatus, number> = {
  pending: 0,
  created: 1,
  awaiting_consent: 2,
  awaiting_payment: 3,
  settled: 4,
  failed: 4,
  rejected: 4,
};

export const isFinalPaymentStatus = (status: BiometricPaymentStatus): status is FinalPaymentStatus =>
  rank[status] === 4;

/** Whether the customer's consent is still to come: the bank has not taken an assertion for the payment. */
export const awaitsConsent = (status: BiometricPaymentStatus) => rank[status] <= 2;

/**
 * Whether `next` moves the payment forward from `current`. Statuses only move forward, so an answer that
 * reflects an older state of the bank (awaiting_payment after settled) is stale and ignored; a final status
 * never changes.
 */
export function movesForward(
  current: BiometricPaymentStatus | undefined,
  next: BiometricPaymentStatus,
): boolean {
  if (current === undefined) return true;
  if (isFinalPaymentStatus(current)) return false;
  return rank[next] > rank[current];
}

/**
 * Whether the bank's record moving from `current` to `next` changes what the workflow does next: the
 * customer's consent is taken, or the payment ends. A move within the wait for consent (`created` to
 * `awaiting_consent`) does not.
 */
export const changesCourse = (current: BiometricPaymentStatus | undefined, next: BiometricPaymentStatus) =>
  movesForward(current, next) &&
  (current === undefined || isFinalPaymentStatus(next) || awaitsConsent(current) !== awaitsConsent(next));

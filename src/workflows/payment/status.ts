import type { BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';

const rank: Record<BiometricPaymentStatus, number> = {
  pending: 0,
  created: 1,
  awaiting_consent: 2,
  awaiting_payment: 3,
  settled: 4,
  failed: 4,
  rejected: 4,
};

export const isFinalPaymentStatus = (status: BiometricPaymentStatus) => rank[status] === 4;

/**
 * Whether `next` moves the payment forward from `current`. Statuses only move forward, so an event that arrives
 * late (awaiting_payment after settled) is stale and ignored; a final status never changes.
 */
export function movesForward(
  current: BiometricPaymentStatus | undefined,
  next: BiometricPaymentStatus,
): boolean {
  if (current === undefined) return true;
  if (isFinalPaymentStatus(current)) return false;
  return rank[next] > rank[current];
}

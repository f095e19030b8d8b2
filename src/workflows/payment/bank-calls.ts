import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import { paymentTimings, type PaymentInput } from '../../contract/payment.js';
import { bankCallOptions, bankReadOptions } from '../activity-options.js';

/** The bank's writes a payment journey makes: each carries what makes a retry safe (external id, one payment). */
export const bank =
  proxyActivities<
    Pick<
      Activities,
      'createBiometricPayment' | 'getPaymentAuthorizationOptions' | 'authorizeBiometricPayment'
    >
  >(bankCallOptions);

/** The bank's reads, retried briefly: a read that waits minutes would keep the journey from its next hint. */
export const bankReads =
  proxyActivities<Pick<Activities, 'listEnrollments' | 'getBiometricPayment'>>(bankReadOptions);

/** Temporal's own records: the claim on the cash-ins of the payment's end-to-end id (and, for runs started
 * before the `cash-in-holder` patch, the cash-in events the receiver kept as unmatched). */
export const temporal =
  proxyActivities<Pick<Activities, 'claimCashIns' | 'claimUnmatchedCashIns'>>(bankCallOptions);

/** The payment the bank is asked to create; its external id makes a retried create answer the same payment. */
export const createRequest = (input: PaymentInput) => ({
  entity_id: input.entityId,
  virtual_account_id: input.virtualAccountId,
  amount: input.amountCents,
  description: input.description,
  external_id: input.externalId,
});

/**
 * Why the enrollment cannot pay, or undefined when the bank shows it authorized. The bank's reads may lag a moment
 * behind an authorization the merchant already heard of, so an enrollment still shown pending (or not yet listed)
 * is read again briefly.
 */
export async function enrollmentRefusal(input: PaymentInput): Promise<string | undefined> {
  let enrollment: Enrollment | undefined;
  for (let waitMs = paymentTimings.enrollmentRecheckMs; ; waitMs *= 2) {
    const enrollments = await bankReads.listEnrollments({ device_id: input.deviceId });
    enrollment = enrollments.data.find((candidate) => candidate.id === input.enrollmentId);
    if (enrollment?.status === 'authorized') return undefined;
    const mayStillShow = !enrollment || enrollment.status.startsWith('awaiting_');
    if (!mayStillShow || waitMs > paymentTimings.enrollmentRecheckForMs) break;
    await sleep(waitMs);
  }
  return enrollment
    ? `enrollment ${input.enrollmentId} is ${enrollment.status}, not authorized: enroll the device again before paying`
    : `enrollment ${input.enrollmentId} does not exist for device ${input.deviceId}`;
}

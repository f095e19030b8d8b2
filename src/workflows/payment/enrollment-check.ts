import { sleep } from '@temporalio/workflow';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import { bankReads } from './bank-calls.js';
import type { PaymentInput } from './definitions.js';
import { paymentTimings } from './timings.js';

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

// The statuses bankflow knows, apart from the schemas: workflow code decides by them, and must not load zod
// (its bundle is evaluated again in every workflow's context; test/unit/workflow-bundle.test.ts).
import type { UnknownStatus } from './schemas/common.js';

/** The spec's lifecycle plus `pending`, which its response examples show. */
export const biometricPaymentStatuses = [
  'pending',
  'created',
  'awaiting_consent',
  'awaiting_payment',
  'settled',
  'failed',
  'rejected',
] as const;

export const enrollmentStatuses = [
  'awaiting_account_holder_validation',
  'awaiting_enrollment',
  'authorized',
  'rejected',
  'revoked',
  'inactive',
] as const;

/** A payment status bankflow knows (the payment schema's enum is built from the list above). */
export type BiometricPaymentStatus = (typeof biometricPaymentStatuses)[number];
/** An enrollment status bankflow knows. */
export type EnrollmentStatus = (typeof enrollmentStatuses)[number];

/** Whether the bank sent a payment status bankflow knows. */
export const isKnownPaymentStatus = (
  status: BiometricPaymentStatus | UnknownStatus,
): status is BiometricPaymentStatus => (biometricPaymentStatuses as readonly string[]).includes(status);

/** Whether the bank sent an enrollment status bankflow knows. */
export const isKnownEnrollmentStatus = (
  status: EnrollmentStatus | UnknownStatus,
): status is EnrollmentStatus => (enrollmentStatuses as readonly string[]).includes(status);

import type { UnknownStatus } from './schemas/common.js';

// The values the bank's spec lists (statuses, webhook categories) and the failure types of its errors, apart
// from the schemas and the error classes: workflow code decides by them, and must not load zod (its bundle is
// evaluated again in every workflow's context; test/unit/workflow-bundle.test.ts).

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

/** The webhook categories bankflow consumes. */
export const webhookCategories = {
  enrollment: 'pix_biometrics_enrollment',
  initiationDocument: 'initiation_document',
  collectingDocument: 'collecting_document',
  recurrenceCollectionAttempt: 'recurrence_collection_attempt',
} as const;

/**
 * What a failed bank call means for the caller, and whether asking again may get another answer. The type is
 * the ApplicationFailure type activities raise (activities/failures.ts, from bank/errors.ts's errors) and the
 * name retry policies refer to (`nonRetryableErrorTypes`), so it is part of bankflow's public contract.
 */
export const bankErrorRetryable = {
  BankUnauthorized: false,
  BankValidation: false,
  BankNotFound: false,
  BankRequestRejected: false,
  BankRateLimited: true,
  BankUnavailable: true,
  BankInvalidResponse: false,
} as const;

export type BankErrorType = keyof typeof bankErrorRetryable;

/** The failure types a retry policy must not retry: the bank would give the same answer again. */
export const nonRetryableBankErrorTypes: BankErrorType[] = Object.entries(bankErrorRetryable)
  .filter(([, retryable]) => !retryable)
  .map(([type]) => type as BankErrorType);

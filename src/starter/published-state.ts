import { z } from 'zod';
import { biometricPaymentStatuses } from '../bank/schemas/biometric-payment.js';
import { accountInfoSchema, enrollmentSchema } from '../bank/schemas/enrollment.js';
import { recurrenceSchema } from '../bank/schemas/recurrence.js';
import type {
  EnrollmentOutcome,
  EnrollmentPhase,
  EnrollmentResult,
  EnrollmentState,
} from '../contract/enrollment.js';
import type { PaymentPhase, PaymentState } from '../contract/payment.js';
import type { RecurrencePhase } from '../contract/recurrence.js';

/**
 * What the starter reads from a workflow's memo, checked on the way in: the memo is written by the workflow,
 * but read by code that may be newer or older than the worker that wrote it, so a shape it does not know is
 * an error that names the field, never a value taken on trust.
 */

export const paymentPhases: readonly PaymentPhase[] = [
  'checking_enrollment',
  'creating',
  ...biometricPaymentStatuses.filter((status) => status !== 'pending'),
  'unknown',
  'expired',
];

/** Why the bank's reads of a journey fail, while they do (contract/journeys.ts). */
const bankTroubleSchema = z.object({
  type: z.string(),
  httpStatus: z.number().int().optional(),
  since: z.string(),
});

/**
 * What a journey shows of the bank's record beside its phase: a status bankflow does not know, read failures.
 */
const bankConditions = {
  unknownStatus: z.string().optional(),
  bankTrouble: bankTroubleSchema.optional(),
};

export const paymentStateSchema: z.ZodType<PaymentState> = z.object({
  phase: z.enum(paymentPhases),
  externalId: z.string(),
  enrollmentId: z.string(),
  paymentId: z.string().optional(),
  endToEndId: z.string().nullable().optional(),
  transactionDate: z.string().nullable().optional(),
  consentDeadline: z.string().optional(),
  authorizeAttempts: z.number(),
  reason: z.string().optional(),
  ...bankConditions,
  evidence: z.array(
    z.object({
      source: z.enum(['create', 'authorize', 'webhook', 'cash-in webhook', 'poll']),
      status: z.string(),
      at: z.string(),
      detail: z.string().optional(),
    }),
  ),
  webhooksReceived: z.number(),
  duplicateWebhooks: z.number(),
  polls: z.number(),
});

const enrollmentOutcomes: readonly EnrollmentOutcome[] = [
  'authorized',
  'rejected',
  'revoked',
  'expired',
  'blocked',
];
export const enrollmentPhases: readonly EnrollmentPhase[] = [
  'creating',
  'awaiting_account_holder_validation',
  'awaiting_enrollment',
  ...enrollmentOutcomes,
];

export const enrollmentStateSchema: z.ZodType<EnrollmentState> = z.object({
  phase: z.enum(enrollmentPhases),
  deviceId: z.string(),
  participantId: z.string(),
  externalId: z.string(),
  enrollmentId: z.string().optional(),
  redirectUrl: z.string().optional(),
  expirationDatetime: z.string().nullable().optional(),
  accountInfo: accountInfoSchema.nullable().optional(),
  reason: z.string().optional(),
  ...bankConditions,
  webhooksReceived: z.number(),
  duplicateWebhooks: z.number(),
  polls: z.number(),
});

export const enrollmentResultSchema: z.ZodType<EnrollmentResult> = z.object({
  outcome: z.enum(enrollmentOutcomes),
  reason: z.string(),
  enrollment: enrollmentSchema.optional(),
});

export const recurrencePhases: readonly RecurrencePhase[] = [
  'generating',
  'active',
  'refused',
  'stopped',
  'rejected',
  'cancelled',
  'expired',
];

/** The part of a recurrence's published summary a start reads: the recurrence, or why the bank refused it. */
export const recurrenceStartSchema = z.object({
  phase: z.enum(recurrencePhases),
  recurrence: recurrenceSchema.optional(),
  reason: z.string().optional(),
});

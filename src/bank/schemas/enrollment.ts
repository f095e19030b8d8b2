import { z } from 'zod';
import { dateTime, uuid } from './common.js';
import { participantSchema } from './participant.js';

export const enrollmentStatuses = [
  'awaiting_account_holder_validation',
  'awaiting_enrollment',
  'authorized',
  'rejected',
  'revoked',
  'inactive',
] as const;
export const enrollmentStatusSchema = z.enum(enrollmentStatuses);
export type EnrollmentStatus = z.infer<typeof enrollmentStatusSchema>;

/** Statuses an enrollment never leaves. */
export const finalEnrollmentStatuses: readonly EnrollmentStatus[] = ['rejected', 'revoked', 'inactive'];

/** The account the customer holds at the participant, as the bank reports it. */
export const accountInfoSchema = z.looseObject({
  branch: z.string(),
  digit: z.string(),
  ispb: z.string(),
  name: z.string(),
  number: z.string(),
  tax_number: z.string(),
  type: z.string(),
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;

export const enrollmentSchema = z.looseObject({
  id: uuid,
  device_id: uuid,
  participant_id: uuid,
  external_id: z.string().nullable(),
  status: enrollmentStatusSchema,
  redirect_url: z.string(),
  expiration_datetime: dateTime.nullable(),
  inserted_at: dateTime,
  updated_at: dateTime,
  /** In create and register responses and webhooks; null before the bank knows the account. */
  account_info: accountInfoSchema.nullable().optional(),
  /** In list responses. */
  participant: participantSchema.optional(),
});
export type Enrollment = z.infer<typeof enrollmentSchema>;

import { z } from 'zod';
import { enrollmentStatuses, type EnrollmentStatus } from '../vocabulary.js';
import { dateTime, openStatus, uuid } from './common.js';
import { participantSchema } from './participant.js';
import { printable } from './printable.js';

export { enrollmentStatuses, type EnrollmentStatus };
export const enrollmentStatusSchema = z.enum(enrollmentStatuses);

/** Statuses an enrollment never leaves. */
export const finalEnrollmentStatuses: readonly EnrollmentStatus[] = ['rejected', 'revoked', 'inactive'];

/** The account the customer holds at the participant, as the bank reports it. */
export const accountInfoSchema = z.looseObject({
  branch: printable,
  digit: printable,
  ispb: printable,
  name: z.string(),
  number: printable,
  tax_number: printable,
  type: printable,
});
export type AccountInfo = z.infer<typeof accountInfoSchema>;

export const enrollmentSchema = z.looseObject({
  id: uuid,
  device_id: uuid,
  participant_id: uuid,
  external_id: printable.nullable(),
  status: openStatus(enrollmentStatuses),
  redirect_url: printable,
  expiration_datetime: dateTime.nullable(),
  inserted_at: dateTime,
  updated_at: dateTime,
  /** In create and register responses and webhooks; null before the bank knows the account. */
  account_info: accountInfoSchema.nullable().optional(),
  /** In list responses. */
  participant: participantSchema.optional(),
});
export type Enrollment = z.infer<typeof enrollmentSchema>;
/** An enrollment record whose status bankflow knows: what a journey follows, and what the sandbox holds. */
export const knownEnrollmentSchema = enrollmentSchema.extend({ status: enrollmentStatusSchema });
export type KnownEnrollment = z.infer<typeof knownEnrollmentSchema>;

import { z } from 'zod';
import { biometricPaymentStatuses, type BiometricPaymentStatus } from '../vocabulary.js';
import { date, dateTime, moneySchema, openStatus, uuid } from './common.js';
import { printable } from './printable.js';

export { biometricPaymentStatuses, type BiometricPaymentStatus };
export const biometricPaymentStatusSchema = z.enum(biometricPaymentStatuses);

export const finalBiometricPaymentStatuses: readonly BiometricPaymentStatus[] = [
  'settled',
  'failed',
  'rejected',
];

const optionalReference = printable.nullable().optional();

/**
 * A Pix payment initiated on an enrollment (the bank's "initiation document"). The members after `updated_at`
 * are those the `initiation_document` webhook's data carries; responses may carry them too.
 */
export const biometricPaymentSchema = z.looseObject({
  id: uuid,
  amount: moneySchema,
  description: z.string(),
  external_id: printable.nullable(),
  end_to_end_id: printable.nullable(),
  status: openStatus(biometricPaymentStatuses),
  transaction_date: date.nullable(),
  virtual_account_id: uuid,
  inserted_at: dateTime,
  updated_at: dateTime,
  entity_id: optionalReference,
  ref_id: optionalReference,
  ref_type: optionalReference,
  participant_id: optionalReference,
  session_id: optionalReference,
  origin_id: optionalReference,
  origin_type: optionalReference,
  counterparty_id: optionalReference,
  reconciliation_id: optionalReference,
  integration_id: optionalReference,
  consent_id: optionalReference,
  redirect_url: optionalReference,
});
export type BiometricPayment = z.infer<typeof biometricPaymentSchema>;
/** A payment record whose status bankflow knows: what a journey follows, and what the sandbox holds. */
export const knownBiometricPaymentSchema = biometricPaymentSchema.extend({
  status: biometricPaymentStatusSchema,
});
export type KnownBiometricPayment = z.infer<typeof knownBiometricPaymentSchema>;

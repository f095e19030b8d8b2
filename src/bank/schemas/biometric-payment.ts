import { z } from 'zod';
import { date, dateTime, moneySchema, uuid } from './common.js';

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
export const biometricPaymentStatusSchema = z.enum(biometricPaymentStatuses);
export type BiometricPaymentStatus = z.infer<typeof biometricPaymentStatusSchema>;

export const finalBiometricPaymentStatuses: readonly BiometricPaymentStatus[] = [
  'settled',
  'failed',
  'rejected',
];

const optionalText = z.string().nullable().optional();

/**
 * A Pix payment initiated on an enrollment (the bank's "initiation document"). The members after `updated_at`
 * are those the `initiation_document` webhook's data carries; responses may carry them too.
 */
export const biometricPaymentSchema = z.looseObject({
  id: uuid,
  amount: moneySchema,
  description: z.string(),
  external_id: z.string().nullable(),
  end_to_end_id: z.string().nullable(),
  status: biometricPaymentStatusSchema,
  transaction_date: date.nullable(),
  virtual_account_id: uuid,
  inserted_at: dateTime,
  updated_at: dateTime,
  entity_id: optionalText,
  ref_id: optionalText,
  ref_type: optionalText,
  participant_id: optionalText,
  session_id: optionalText,
  origin_id: optionalText,
  origin_type: optionalText,
  counterparty_id: optionalText,
  reconciliation_id: optionalText,
  integration_id: optionalText,
  consent_id: optionalText,
  redirect_url: optionalText,
});
export type BiometricPayment = z.infer<typeof biometricPaymentSchema>;

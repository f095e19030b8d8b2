import { z } from 'zod';
import { date, dateTime, moneySchema, uuid } from './common.js';
import { maxJsonLength, pixTextMaxLength } from './text.js';
import { printable, printableOnly } from './printable.js';

/**
 * Periodicity codes: the spec shows `mnth` and `week`; the rest follow the same ISO 20022 frequency codes
 * (docs/decisions.md). Retry policies `none` and `3r_7d` are the two Pix Automático allows.
 */
export const recurrencePeriodicities = ['week', 'mnth', 'qurt', 'mian', 'year'] as const;
export const recurrenceRetryPolicies = ['none', '3r_7d'] as const;

const positiveCents = z.number().int().positive();
const nonNegative = z.number().nonnegative();
const digits = (pattern: RegExp, message: string) => z.string().regex(pattern, message);

export const recurrenceBankAccountSchema = z.looseObject({
  ispb: digits(/^\d{8}$/, 'must be 8 digits'),
  branch: digits(/^\d{1,6}$/, 'must be 1 to 6 digits'),
  number: digits(/^\d{1,20}$/, 'must be 1 to 20 digits'),
  digit: z
    .string()
    .regex(/^[0-9A-Za-z]$/, 'must be one letter or digit')
    .optional(),
});

export const recurrenceCounterpartySchema = z.looseObject({
  name: z.string().trim().min(1).check(maxJsonLength(pixTextMaxLength), printableOnly()),
  tax_number: digits(/^(\d{11}|\d{14})$/, 'must be 11 (CPF) or 14 (CNPJ) digits'),
  bank_account: recurrenceBankAccountSchema,
});

export const recurrenceDueDetailSchema = z
  .looseObject({
    due_date: date,
    discount: nonNegative.optional(),
    discount_amounts: z.array(nonNegative).optional(),
    discount_dates: z.array(date).optional(),
    discount_antecipation_type: printable.optional(),
    discount_calculation_days: printable.optional(),
    discount_calculation_type: printable.optional(),
    fine: nonNegative.optional(),
    fine_calculation_type: printable.optional(),
    interest: nonNegative.optional(),
    interest_calculation_days: printable.optional(),
    interest_calculation_period: printable.optional(),
    interest_calculation_type: printable.optional(),
    rebate: nonNegative.optional(),
    rebate_calculation_type: printable.optional(),
  })
  .superRefine((detail, ctx) => {
    // Each discount amount applies until the date at the same position.
    if ((detail.discount_amounts?.length ?? 0) !== (detail.discount_dates?.length ?? 0)) {
      ctx.addIssue({
        code: 'custom',
        path: ['discount_dates'],
        message: 'must have one date per entry of discount_amounts',
      });
    }
  });

export const recurrenceFirstPaymentSchema = z.looseObject({
  amount: positiveCents,
  dict_key: printable.min(1).check(maxJsonLength(77)).optional(),
  due_detail: recurrenceDueDetailSchema.optional(),
});

export const recurrenceOptionsSchema = z.looseObject({
  authorization_type: printable.min(1).optional(),
  automatic_schedule: z.boolean().optional(),
  next_working_day: z.boolean().optional(),
  qrcode_expiration_seconds: z.number().int().positive().optional(),
  retry_policy: z.enum(recurrenceRetryPolicies).optional(),
});

/**
 * POST /banking/cashin/pix/recurrences body. Which members are required is not shown; bankflow requires what
 * a recurrence cannot exist without (who pays, into which account, how often, from when) and `external_id`,
 * which makes the create idempotent (docs/decisions.md). Amounts are positive integers in cents.
 */
export const generateRecurrenceRequestSchema = z.looseObject({
  amounts: z.looseObject({ minimum: positiveCents }).optional(),
  contract_number: printable.min(1).check(maxJsonLength(35)).optional(),
  counterparty: recurrenceCounterpartySchema,
  description: printable.check(maxJsonLength(pixTextMaxLength)).optional(),
  external_id: printable.min(1).check(maxJsonLength(100)),
  first_payment: recurrenceFirstPaymentSchema.optional(),
  options: recurrenceOptionsSchema.optional(),
  periodicity: z.enum(recurrencePeriodicities),
  start_date: dateTime,
  virtual_account_id: uuid,
});
export type GenerateRecurrenceRequest = z.infer<typeof generateRecurrenceRequestSchema>;

/** Only `approved` is shown by the spec; the rest is bankflow's assumption (docs/decisions.md). */
export const recurrenceStatuses = ['created', 'approved', 'rejected', 'cancelled', 'expired'] as const;

export const recurrenceQrCodeSchema = z.looseObject({ hash: printable, id: uuid, type: printable });

/** Members with no value for a given recurrence (no end date, no fixed amount, no QR code...) are null. */
export const recurrenceSchema = z.looseObject({
  id: uuid,
  id_rec: uuid,
  reference_id: uuid,
  reference_type: printable,
  type: printable,
  status: printable,
  journey: printable,
  description: z.string(),
  contract_number: printable,
  external_id: printable,
  txid: printable,
  periodicity: printable,
  retry_policy: printable,
  automatic_schedule: z.boolean(),
  automated_attempt_retry: z.boolean(),
  next_working_day: z.boolean(),
  start_date: dateTime,
  end_date: dateTime.nullish(),
  first_payment_date: dateTime.nullish(),
  timestamp: dateTime,
  minimum_amount: moneySchema.nullish(),
  maximum_amount: moneySchema.nullish(),
  fixed_amount: moneySchema.nullish(),
  first_payment_amount: moneySchema.nullish(),
  ispb: printable,
  entity_id: uuid,
  company_id: uuid,
  org_id: uuid,
  virtual_account_id: uuid,
  bank_account_id: uuid,
  counterparty_id: uuid,
  counterparty_bank_account_id: uuid,
  counterparty_info_id: uuid,
  counterparty_seq: printable,
  qrcode: recurrenceQrCodeSchema.nullish(),
});
export type Recurrence = z.infer<typeof recurrenceSchema>;

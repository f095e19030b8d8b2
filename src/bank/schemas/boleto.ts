import { z } from 'zod';
import { dateTime, date, uuid } from './common.js';

const calculated = z.looseObject({ amount: z.number(), calculation_type: z.string() });

export const boletoDueDetailSchema = z.looseObject({
  due_date: date,
  fine: calculated.optional(),
  interest: calculated.optional(),
  discount: z
    .looseObject({
      fixed_until_due: z
        .looseObject({
          amounts: z.array(z.looseObject({ amount: z.number(), date })),
          calculation_type: z.string(),
        })
        .optional(),
      per_day_antecipated: z
        .looseObject({ amount: z.number(), calculation_days: z.string(), calculation_type: z.string() })
        .optional(),
    })
    .optional(),
});

export const boletoStatuses = ['confirmed', 'cancelled'] as const;

export const boletoSchema = z.looseObject({
  id: uuid,
  virtual_account_id: uuid,
  external_id: z.string(),
  amount: z.number().int(),
  barcode: z.string(),
  digitable_line: z.string(),
  boleto_url: z.string(),
  description: z.string(),
  invoice_type: z.string(),
  wallet_type: z.string(),
  status: z.string(),
  issue_date: dateTime,
  expiration_date: dateTime,
  notes: z.array(z.string()),
  due_detail: boletoDueDetailSchema,
});
export type Boleto = z.infer<typeof boletoSchema>;

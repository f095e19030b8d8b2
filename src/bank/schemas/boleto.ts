import { z } from 'zod';
import { dateTime, date, uuid } from './common.js';
import { printable } from './printable.js';

const calculated = z.looseObject({ amount: z.number(), calculation_type: printable });

export const boletoDueDetailSchema = z.looseObject({
  due_date: date,
  fine: calculated.optional(),
  interest: calculated.optional(),
  discount: z
    .looseObject({
      fixed_until_due: z
        .looseObject({
          amounts: z.array(z.looseObject({ amount: z.number(), date })),
          calculation_type: printable,
        })
        .optional(),
      per_day_antecipated: z
        .looseObject({ amount: z.number(), calculation_days: printable, calculation_type: printable })
        .optional(),
    })
    .optional(),
});

export const boletoStatuses = ['confirmed', 'cancelled'] as const;

export const boletoSchema = z.looseObject({
  id: uuid,
  virtual_account_id: uuid,
  external_id: printable,
  amount: z.number().int(),
  barcode: printable,
  digitable_line: printable,
  boleto_url: printable,
  description: z.string(),
  invoice_type: printable,
  wallet_type: printable,
  status: printable,
  issue_date: dateTime,
  expiration_date: dateTime,
  notes: z.array(z.string()),
  due_detail: boletoDueDetailSchema,
});
export type Boleto = z.infer<typeof boletoSchema>;

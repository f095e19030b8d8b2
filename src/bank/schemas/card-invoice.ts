import { z } from 'zod';
import { dateTime, uuid } from './common.js';
import { printable } from './printable.js';

/**
 * All amounts in minor units. `purchase_balance` sums confirmed purchases, `pending_confirmation_amount` the
 * ones awaiting confirmation, `balance` both (docs/decisions.md). The invoice covers [from_datetime,
 * to_datetime).
 */
export const cardInvoiceSchema = z.looseObject({
  id: uuid,
  company_id: uuid,
  entity_id: uuid,
  org_id: uuid,
  balance: z.number().int(),
  pending_confirmation_amount: z.number().int(),
  purchase_balance: z.number().int(),
  status: printable,
  from_datetime: dateTime,
  to_datetime: dateTime,
});
export type CardInvoice = z.infer<typeof cardInvoiceSchema>;

/** GET /banking/cards/invoices/current query; the name `entity_id` is bankflow's (docs/decisions.md). */
export const currentCardInvoiceQuerySchema = z.strictObject({ entity_id: uuid });
export type CurrentCardInvoiceQuery = z.infer<typeof currentCardInvoiceQuerySchema>;

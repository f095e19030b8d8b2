import { z } from 'zod';
import { dateOrDateTime, dateTime, moneySchema, uuid } from './common.js';
import { printable } from './printable.js';

/**
 * The data of a Pix cash-in event (`collecting_document` webhooks), which confirms a settled Pix. Its payload
 * is not shown by the spec; bankflow relies on `end_to_end_id` and `status` only.
 */
export const collectingDocumentSchema = z.looseObject({
  id: uuid,
  end_to_end_id: printable,
  status: printable,
  amount: moneySchema,
  transaction_date: dateOrDateTime.nullable(),
  virtual_account_id: uuid.nullable().optional(),
  entity_id: uuid.nullable().optional(),
  description: z.string().nullable().optional(),
  inserted_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});
export type CollectingDocument = z.infer<typeof collectingDocumentSchema>;

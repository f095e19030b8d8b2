import { z } from 'zod';
import { dateTime, moneySchema, uuid } from './common.js';
import { cursorQueryShape, windowInOrder } from './query.js';

export const transferStatuses = [
  'created',
  'confirmed',
  'settled',
  'refunded',
  'reversed',
  'failed',
] as const;
export const transferStatusSchema = z.enum(transferStatuses);
export type TransferStatus = z.infer<typeof transferStatusSchema>;

/**
 * A cash-out transfer document. The spec shows only the list query and the statuses, so the record is bankflow's
 * assumption (docs/decisions.md): the query's filter fields plus what a reconciliation needs. `timestamp` is the
 * instant the transfer was requested and is what the from/to window filters on.
 */
export const transferDocumentSchema = z.looseObject({
  id: uuid,
  amount: moneySchema,
  status: transferStatusSchema,
  from_virtual_account_id: uuid,
  to_virtual_account_id: uuid,
  bank_account_id: uuid,
  entity_id: uuid,
  external_id: z.string(),
  reconciliation_id: uuid.nullable(),
  end_to_end_id: z.string().nullable(),
  description: z.string(),
  transaction_date: dateTime.nullable(),
  timestamp: dateTime,
  inserted_at: dateTime,
  updated_at: dateTime,
});
export type TransferDocument = z.infer<typeof transferDocumentSchema>;

/** GET /banking/cashout/transfer query; the parameter names are the spec's. */
export const transferListQuerySchema = z
  .strictObject({
    from_virtual_account_id: uuid.optional(),
    to_virtual_account_id: uuid.optional(),
    from_datetime: dateTime,
    to_datetime: dateTime,
    external_id: z.string().min(1).optional(),
    reconciliation_id: uuid.optional(),
    status: transferStatusSchema.optional(),
    ...cursorQueryShape,
  })
  .superRefine(windowInOrder);
export type TransferListQuery = z.infer<typeof transferListQuerySchema>;

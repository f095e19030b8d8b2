import { z } from 'zod';
import { dateTime, moneySchema, nullishMembers, uuid } from './common.js';
import { cursorQueryShape, windowInOrder } from './query.js';
import { printable } from './printable.js';

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
 * The members bankflow relies on in a transfer: its id, the amount a report totals, the instant windows
 * filter on.
 */
const usedTransferMembers = { id: uuid, amount: moneySchema, timestamp: dateTime };

/** The rest of bankflow's assumed record: the query's filter fields plus what a reconciliation needs. */
const otherTransferMembers = {
  from_virtual_account_id: uuid,
  to_virtual_account_id: uuid,
  bank_account_id: uuid,
  entity_id: uuid,
  external_id: printable,
  reconciliation_id: uuid.nullable(),
  end_to_end_id: printable.nullable(),
  description: z.string(),
  transaction_date: dateTime.nullable(),
  inserted_at: dateTime,
  updated_at: dateTime,
};

/**
 * A cash-out transfer document as bankflow reads it. The spec shows only the list query and the statuses, so
 * the client requires only the members bankflow uses and reads the others when present (null or absent
 * alike); a status outside the spec's six is kept as the bank wrote it, and reports and the CLI show it under
 * its own name (docs/decisions.md).
 */
export const transferDocumentSchema = z.looseObject({
  ...usedTransferMembers,
  status: printable,
  ...nullishMembers(otherTransferMembers),
});
export type TransferDocument = z.infer<typeof transferDocumentSchema>;

/**
 * The transfer the sandbox bank keeps and answers: the whole assumed record, in one of the spec's statuses.
 */
export const sandboxTransferDocumentSchema = z.looseObject({
  ...usedTransferMembers,
  status: transferStatusSchema,
  ...otherTransferMembers,
});
export type SandboxTransferDocument = z.infer<typeof sandboxTransferDocumentSchema>;

/** GET /banking/cashout/transfer query; the parameter names are the spec's. */
export const transferListQuerySchema = z
  .strictObject({
    from_virtual_account_id: uuid.optional(),
    to_virtual_account_id: uuid.optional(),
    from_datetime: dateTime,
    to_datetime: dateTime,
    external_id: printable.min(1).optional(),
    reconciliation_id: uuid.optional(),
    status: transferStatusSchema.optional(),
    ...cursorQueryShape,
  })
  .superRefine(windowInOrder);
export type TransferListQuery = z.infer<typeof transferListQuerySchema>;

import { z } from 'zod';
import { dateTime, moneySchema, uuid } from './common.js';
import { cursorQueryShape, windowInOrder } from './query.js';
import { stageSchema } from './stage.js';

/** Only `created` is shown by the spec; the rest is bankflow's assumption (docs/decisions.md). */
export const refundStatuses = ['created', 'processing', 'settled', 'failed'] as const;

/** A refund of a collecting document (a Pix cash-in), with the stages it went through. */
export const receivableRefundSchema = z.looseObject({
  id: uuid,
  amount: moneySchema,
  bank_account_id: uuid,
  collecting_document_id: uuid,
  entity_id: uuid,
  virtual_account_id: uuid,
  origin_id: uuid,
  reconciliation_id: uuid.nullable(),
  description: z.string(),
  external_id: z.string(),
  end_to_end_id: z.string(),
  receipt_url: z.string(),
  origin_type: z.string(),
  status: z.string(),
  timestamp: dateTime,
  transaction_date: dateTime.nullable(),
  stages: z.array(stageSchema),
});
export type ReceivableRefund = z.infer<typeof receivableRefundSchema>;

/**
 * GET /banking/cashin/refunds query. Names other than the cursors are bankflow's (docs/decisions.md); the
 * window filters on the refund's `timestamp`.
 */
export const refundListQuerySchema = z
  .strictObject({
    virtual_account_id: uuid.optional(),
    from_datetime: dateTime.optional(),
    to_datetime: dateTime.optional(),
    reconciliation_id: uuid.optional(),
    ...cursorQueryShape,
  })
  .superRefine(windowInOrder);
export type RefundListQuery = z.infer<typeof refundListQuerySchema>;

import { z } from 'zod';
import { dateTime, moneySchema, uuid } from './common.js';
import { printable } from './printable.js';

const purchaseFields = {
  id: uuid,
  wallet_id: uuid,
  entity_id: uuid,
  holder_id: uuid,
  card_id: uuid,
  company_id: uuid,
  category_id: uuid,
  merchant_id: uuid,
  org_id: uuid,
  receipt_url: printable,
  is_partially_allowed: z.boolean(),
  inserted_at: dateTime,
  updated_at: dateTime,
  timestamp: dateTime,
  issuer_amount: moneySchema,
  merchant_amount: moneySchema,
  tax: moneySchema,
  amount: moneySchema,
  category_type: printable,
  category_code: printable,
  method_code: printable,
  purpose: printable,
  status: printable,
  description: z.string(),
  merchant_country_code: printable,
  merchant_currency_symbol: printable,
  zip_code: printable,
  merchant_name: z.string(),
  error_code: printable.nullable(),
  error_message: z.string().nullable(),
  end_to_end_id: printable,
  score: printable,
};

/** A stage repeats the document as it was at that step (without compress_timestamp) plus the callback. */
export const cardPurchaseStageSchema = z.looseObject({
  ...purchaseFields,
  purchase_document_id: uuid,
  callback_amount: moneySchema,
  callback_type: printable,
});
export type CardPurchaseStage = z.infer<typeof cardPurchaseStageSchema>;

export const cardPurchaseDocumentSchema = z.looseObject({
  ...purchaseFields,
  compress_timestamp: dateTime,
  stages: z.array(cardPurchaseStageSchema),
});
export type CardPurchaseDocument = z.infer<typeof cardPurchaseDocumentSchema>;

/** What a card purchase's end-to-end id may be; the spec says only "string" (docs/decisions.md). */
export const cardEndToEndIdRule = 'must be 1 to 100 letters or digits';

/**
 * Card purchases' end-to-end ids: letters and digits, at most 100 (the bound the webhook receiver gives any
 * end-to-end id). The sandbox issues them in Pix's 32-character form: E, the ISPB, the UTC minute, 11
 * characters.
 */
export const cardEndToEndIdSchema = z.string().regex(/^[A-Za-z0-9]{1,100}$/, cardEndToEndIdRule);

/**
 * GET /banking/cards/purchases/e2e/{id} query. `timestamp` (name assumed) narrows the search to purchases
 * made on that UTC day, the day the bank files the purchase under (`compress_timestamp`).
 */
export const cardPurchaseQuerySchema = z.strictObject({ timestamp: dateTime.optional() });
export type CardPurchaseQuery = z.infer<typeof cardPurchaseQuerySchema>;

import { z } from 'zod';
import { webhookCategories, type WebhookEnvelope } from '../bank/schemas/webhook.js';
import { searchAttributes } from '../contract/search-attributes.js';

/** What ties a Pix cash-in event to its payment: the end-to-end id. */
export const cashInKeys = z.looseObject({ end_to_end_id: z.string().min(1) });

const plausibleEndToEndId = /^[\x21-\x7e]{1,100}$/;

/**
 * The search attributes an unmatched event is kept under besides its kind and status, so the workflow it belongs to
 * can claim it later: a Pix cash-in can reach the receiver before its payment's end-to-end id is searchable.
 */
export function unmatchedEventKeys(envelope: WebhookEnvelope) {
  if (envelope.category !== webhookCategories.collectingDocument) return [];
  const keys = cashInKeys.safeParse(envelope.data);
  // Only what could be a Pix end-to-end id (32 printable characters) is indexed: a keyword search attribute has a
  // size limit, and SQL visibility stores refuse a NUL.
  if (!keys.success || !plausibleEndToEndId.test(keys.data.end_to_end_id)) return [];
  return [{ key: searchAttributes.endToEndId, value: keys.data.end_to_end_id }];
}

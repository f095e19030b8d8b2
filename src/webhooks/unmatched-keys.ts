import { z } from 'zod';
import { webhookCategories, type WebhookEnvelope } from '../bank/schemas/webhook.js';
import { searchAttributes } from '../contract/temporal.js';

/** What ties a Pix cash-in event to its payment: the end-to-end id. */
const cashInKeys = z.looseObject({ end_to_end_id: z.string().min(1) });

const plausibleEndToEndId = /^[\x21-\x7e]{1,100}$/;

/** Whether `value` could be a Pix end-to-end id, and so name a workflow and a search attribute. */
export const isPlausibleEndToEndId = (value: string) => plausibleEndToEndId.test(value);

/**
 * The end-to-end id of a Pix cash-in event, when it could be one (32 printable characters): only such an id
 * names a workflow or a keyword search attribute, which have size limits and which SQL visibility stores
 * refuse a NUL in.
 */
export function cashInEndToEndId(envelope: WebhookEnvelope): string | undefined {
  if (envelope.category !== webhookCategories.collectingDocument) return undefined;
  const keys = cashInKeys.safeParse(envelope.data);
  if (!keys.success || !isPlausibleEndToEndId(keys.data.end_to_end_id)) return undefined;
  return keys.data.end_to_end_id;
}

/**
 * The search attributes an unmatched event is kept under besides its kind and status: a cash-in's end-to-end
 * id, so support finds it by the id the payment shows.
 */
export function unmatchedEventKeys(envelope: WebhookEnvelope) {
  const endToEndId = cashInEndToEndId(envelope);
  return endToEndId === undefined ? [] : [{ key: searchAttributes.endToEndId, value: endToEndId }];
}

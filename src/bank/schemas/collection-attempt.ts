import { z } from 'zod';
import { dateOrDateTime, dateTime, nullishMembers, uuid } from './common.js';
import { cursorQueryShape, windowInOrder } from './query.js';
import { stageSchema } from './stage.js';
import { printable } from './printable.js';

/**
 * The spec describes the single attempt as having stages but shows none of their fields: each member of a
 * refund's stage is read when present, none required (docs/decisions.md).
 */
export const collectionAttemptStageSchema = z.looseObject(nullishMembers(stageSchema.shape));
export type CollectionAttemptStage = z.infer<typeof collectionAttemptStageSchema>;

/** Only `created` is shown by the spec; the rest is bankflow's assumption (docs/decisions.md). */
export const collectionAttemptStatuses = ['created', 'settled', 'failed', 'cancelled'] as const;
export const collectionAttemptStatusSchema = z.enum(collectionAttemptStatuses);
export type CollectionAttemptStatus = z.infer<typeof collectionAttemptStatusSchema>;

/**
 * One try at collecting one period of a recurrence. `due_date` is a date (YYYY-MM-DD, as the spec's
 * conventions say of due dates) or a datetime (as its attempt section says of attempt dates): both are read,
 * kept as sent. `end_to_end_id` and `transaction_date` are null until the Pix is initiated / settled.
 * `external_id` is the recurrence's, so an attempt finds its recurrence workflow; `recurrence_id` and
 * `entity_id` (not in the spec's field list, but they are filters) are kept when sent. `stages` come only
 * with the single-record form.
 */
export const collectionAttemptSchema = z.looseObject({
  id: uuid,
  collection_id: uuid,
  external_id: printable,
  end_to_end_id: printable.nullable(),
  txid: printable,
  type: printable,
  status: printable,
  collection_timestamp: dateTime,
  due_date: dateOrDateTime,
  timestamp: dateTime,
  transaction_date: dateTime.nullable(),
  inserted_at: dateTime,
  updated_at: dateTime,
  recurrence_id: uuid.optional(),
  entity_id: uuid.optional(),
  stages: z.array(collectionAttemptStageSchema).optional(),
});
export type CollectionAttempt = z.infer<typeof collectionAttemptSchema>;

/**
 * An attempt as a webhook carries it: it may omit the key the receiver routed by (`recurrence_id` ties it
 * then).
 */
export const webhookCollectionAttemptSchema = collectionAttemptSchema.extend({
  external_id: collectionAttemptSchema.shape.external_id.nullish(),
});
export type WebhookCollectionAttempt = z.infer<typeof webhookCollectionAttemptSchema>;

/** The largest page the attempts list serves; a larger `limit` is capped to it, one below 1 is a 400. */
export const maxCollectionAttemptPageSize = 100;

/**
 * GET /banking/cashin/pix/recurrences/collections/attempts query. The spec names none of these but the
 * cursors; the names are bankflow's (docs/decisions.md). The window filters on the attempt's `timestamp`.
 */
export const collectionAttemptListQuerySchema = z
  .strictObject({
    entity_id: uuid.optional(),
    recurrence_id: uuid.optional(),
    collection_id: uuid.optional(),
    from_datetime: dateTime.optional(),
    to_datetime: dateTime.optional(),
    limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').optional(),
    ...cursorQueryShape,
  })
  .superRefine(windowInOrder);
export type CollectionAttemptListQuery = z.infer<typeof collectionAttemptListQuerySchema>;

import { z } from 'zod';

/**
 * The spec says "uuid"; the bank's ids are matched by shape (8-4-4-4-12 hex) rather than by RFC version bits,
 * so an id from another generator is not refused.
 */
export const uuid = z.guid({ error: 'must be a uuid (8-4-4-4-12 hex digits)' });

/** ISO 8601 date-time; the bank writes UTC with or without fractional seconds. */
export const dateTime = z.iso.datetime({ offset: true });

/** YYYY-MM-DD. */
export const date = z.iso.date();

export const moneySchema = z.looseObject({
  amount: z.number().int(),
  currency: z.string(),
});
export type Money = z.infer<typeof moneySchema>;

/** `{data: <record>}` — every single-record response. */
export function single<T extends z.ZodType>(record: T) {
  return z.looseObject({ data: record });
}

export const pageMetadataSchema = z.looseObject({
  before: z.string().nullable(),
  after: z.string().nullable(),
  has_next: z.boolean(),
});
export type PageMetadata = z.infer<typeof pageMetadataSchema>;

/** `{data: [...], metadata}` — paginated lists; metadata is absent on lists that have no cursor. */
export function list<T extends z.ZodType>(record: T) {
  return z.looseObject({ data: z.array(record), metadata: pageMetadataSchema.optional() });
}

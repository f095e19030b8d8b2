import { z } from 'zod';
import { printable } from './printable.js';

/**
 * The spec says "uuid"; the bank's ids are matched by shape (8-4-4-4-12 hex) rather than by RFC version bits,
 * so an id from another generator is not refused.
 */
export const uuid = z.guid({ error: 'must be a uuid (8-4-4-4-12 hex digits)' });

/**
 * A status the bank sends that is none of the ones bankflow knows. Banks add statuses, and the spec's own
 * examples show one its lifecycle does not list: such a record is data, kept as sent, not a malformed answer.
 * The brand keeps it apart from the known ones, so code that decides by status has to say what it does with
 * one it does not know. A value that is no status word at all (blank, spaced, control characters) is a
 * malformed answer.
 */
export const unknownStatusSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, {
    error: 'must be a status word (letters, digits, _ . -, at most 64 characters)',
  })
  .brand<'UnknownBankStatus'>();
export type UnknownStatus = z.infer<typeof unknownStatusSchema>;

/** One of `known`, or a status bankflow does not know (unknownStatusSchema). */
export const openStatus = <const Known extends readonly [string, ...string[]]>(known: Known) =>
  z.union([z.enum(known), unknownStatusSchema]);

/** ISO 8601 date-time; the bank writes UTC with or without fractional seconds. */
export const dateTime = z.iso.datetime({ offset: true });

/** YYYY-MM-DD. */
export const date = z.iso.date();

/** A date the spec gives both ways: YYYY-MM-DD in one place, a date-time in another. */
export const dateOrDateTime = z.union([date, dateTime]);

export const moneySchema = z.looseObject({
  amount: z.number().int(),
  currency: printable,
});
export type Money = z.infer<typeof moneySchema>;

/**
 * The same members, each one optional and nullable: how the client reads members of a record the spec leaves
 * "not shown" and bankflow does not rely on.
 */
export function nullishMembers<T extends Record<string, z.ZodType>>(
  shape: T,
): { [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>> } {
  return Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, schema.nullish()])) as {
    [K in keyof T]: z.ZodOptional<z.ZodNullable<T[K]>>;
  };
}

/** `{data: <record>}` — every single-record response. */
export function single<T extends z.ZodType>(record: T) {
  return z.looseObject({ data: record });
}

export const pageMetadataSchema = z.looseObject({
  before: printable.nullable(),
  after: printable.nullable(),
  has_next: z.boolean(),
});
export type PageMetadata = z.infer<typeof pageMetadataSchema>;

/** `{data: [...], metadata}` — paginated lists; metadata is absent on lists that have no cursor. */
export function list<T extends z.ZodType>(record: T) {
  return z.looseObject({ data: z.array(record), metadata: pageMetadataSchema.optional() });
}

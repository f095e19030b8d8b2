import { createHash } from 'node:crypto';

/** JSON with object keys in sorted order, so that equal values give equal text whatever their key order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, member: unknown) =>
    member && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => a.localeCompare(b)))
      : member,
  );

/**
 * A request id derived from what the request says: the same request repeated gets the same id, hence the
 * workflow's first answer (a start with the same terms, an assertion sent twice).
 */
export const idempotencyKey = (value: unknown): string =>
  createHash('sha256').update(canonical(value)).digest('base64url').slice(0, 32);

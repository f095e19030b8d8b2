import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { PageMetadata } from '../../src/bank/schemas/common.js';
import type { ErrorItem } from '../../src/bank/schemas/errors.js';
import { parameterError, sendParameterErrors } from './query.js';

/** The spec's default page size. */
export const defaultPageSize = 50;

/**
 * Where a record sits in a list's order: by time, then id. Cursors carry a key rather than an offset, so
 * records added while a client pages (new attempts, new transfers) never make it see a record twice or miss
 * one.
 */
export interface PageKey {
  time: number;
  id: string;
}

export interface PageRequest {
  limit: number;
  before?: PageKey;
  after?: PageKey;
}

/** A cursor is bound to its list (`scope`), so a transfers cursor is refused by the refunds list. */
const cursorSchema = z.strictObject({ s: z.string(), t: z.number().int(), id: z.string() });

export function encodeCursor(scope: string, key: PageKey): string {
  return Buffer.from(JSON.stringify({ s: scope, t: key.time, id: key.id })).toString('base64url');
}

function decodeCursor(scope: string, value: string): PageKey | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return undefined;
  try {
    const parsed = cursorSchema.safeParse(JSON.parse(Buffer.from(value, 'base64url').toString('utf8')));
    return parsed.success && parsed.data.s === scope
      ? { time: parsed.data.t, id: parsed.data.id }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The page a validated list query asks for, or undefined once the error answer has been sent: both cursors
 * together, or a cursor this list did not hand out, are refused naming the parameter(s).
 */
export function readPageRequest(
  reply: FastifyReply,
  scope: string,
  query: { before?: string | undefined; after?: string | undefined },
  limit = defaultPageSize,
): PageRequest | undefined {
  if (query.before !== undefined && query.after !== undefined) {
    const message = 'cannot be used together with the other cursor; send either before or after';
    sendParameterErrors(reply, [
      parameterError('INVALID_PARAMETER', 'query', 'before', message),
      parameterError('INVALID_PARAMETER', 'query', 'after', message),
    ]);
    return undefined;
  }
  const request: PageRequest = { limit };
  const errors: ErrorItem[] = [];
  for (const name of ['before', 'after'] as const) {
    const value = query[name];
    if (value === undefined) continue;
    const key = decodeCursor(scope, value);
    if (key) request[name] = key;
    else errors.push(parameterError('INVALID_PARAMETER', 'query', name, 'is not a cursor of this list'));
  }
  if (errors.length > 0) {
    sendParameterErrors(reply, errors);
    return undefined;
  }
  return request;
}

export function compareKeys(a: PageKey, b: PageKey): number {
  return a.time - b.time || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The timestamp-and-id key of a record; `time` is the instant the list orders by. */
export function keyOf(timestamp: string, id: string): PageKey {
  return { time: Date.parse(timestamp), id };
}

export interface KeyedRecord<T> {
  record: T;
  key: PageKey;
}

/**
 * The first index in [lo, hi) of `keyed` (in key order) whose key is not below `key` (`above`: is above it).
 */
export function searchKeys<T>(
  keyed: readonly KeyedRecord<T>[],
  key: PageKey,
  lo = 0,
  hi = keyed.length,
  above = false,
): number {
  let low = lo;
  let high = hi;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = compareKeys(keyed[middle]!.key, key);
    if (order < 0 || (above && order === 0)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * One page of `records`, oldest first. `after` starts the page at its key, `before` ends it at its key; the
 * metadata's `after` points to the record following the page and `before` to the one preceding it.
 */
export function paginate<T>(
  scope: string,
  records: readonly T[],
  keyFor: (record: T) => PageKey,
  request: PageRequest,
): { data: T[]; metadata: PageMetadata } {
  const keyed = records.map((record) => ({ record, key: keyFor(record) }));
  keyed.sort((a, b) => compareKeys(a.key, b.key));
  return paginateOrdered(scope, keyed, request);
}

/** `paginate` over the records of `keyed[lo, hi)`, already in key order: a binary search and a slice. */
export function paginateOrdered<T>(
  scope: string,
  keyed: readonly KeyedRecord<T>[],
  request: PageRequest,
  lo = 0,
  hi = keyed.length,
): { data: T[]; metadata: PageMetadata } {
  let start = lo;
  let end = Math.min(hi, lo + request.limit);
  const { after, before } = request;
  if (after) {
    start = searchKeys(keyed, after, lo, hi);
    end = Math.min(hi, start + request.limit);
  } else if (before) {
    end = searchKeys(keyed, before, lo, hi, true);
    start = Math.max(lo, end - request.limit);
  }
  const next = end < hi ? keyed[end] : undefined;
  const previous = start > lo ? keyed[start - 1] : undefined;
  return {
    data: keyed.slice(start, end).map((item) => item.record),
    metadata: {
      before: previous ? encodeCursor(scope, previous.key) : null,
      after: next ? encodeCursor(scope, next.key) : null,
      has_next: next !== undefined,
    },
  };
}

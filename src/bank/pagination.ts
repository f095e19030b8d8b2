import { BankError, BankInvalidResponseError, type BankErrorContext } from './errors.js';
import type { PageMetadata } from './schemas/common.js';

/** The cursors of one list request; the spec allows at most one of them. */
export interface PageCursors {
  before?: string | undefined;
  after?: string | undefined;
}

/** One page of a list endpoint. */
export interface Page<T> {
  data: T[];
  metadata: PageMetadata;
}

/** A list answered without metadata has no cursor to follow: it is the only page. */
const onlyPage: PageMetadata = { before: null, after: null, has_next: false };

export function toPage<T>(response: { data: T[]; metadata?: PageMetadata | undefined }): Page<T> {
  return { data: response.data, metadata: response.metadata ?? onlyPage };
}

/** Where a list call goes; names the call in errors raised before or between requests. */
export interface ListEndpoint {
  operation: string;
  path: string;
}

/** For errors raised by the paging itself, which belong to no single HTTP request. */
const pagingContext = (endpoint: ListEndpoint): BankErrorContext => ({
  operation: endpoint.operation,
  method: 'GET',
  path: endpoint.path,
  requestId: 'none',
});

/**
 * `before` and `after` together, refused before any request is sent. Its type is `BankValidation` so retry
 * policies treat it like the bank's own refusal of a bad request.
 */
export class PageCursorConflictError extends BankError {
  readonly type = 'BankValidation';
  readonly parameters = ['before', 'after'] as const;

  constructor(endpoint: ListEndpoint) {
    super(
      'the query parameters before and after cannot be sent together; pass only one cursor',
      pagingContext(endpoint),
      'INVALID_PARAMETER',
    );
  }
}

export function assertOneCursor(endpoint: ListEndpoint, query: PageCursors): void {
  if (query.before !== undefined && query.after !== undefined) throw new PageCursorConflictError(endpoint);
}

/**
 * Every page from `query` on, following `metadata.after` while `has_next`. A page that claims a next page
 * without a cursor, or hands back the cursor it was asked for, would loop forever and is refused instead.
 */
export async function* eachPage<Q extends PageCursors, T>(
  endpoint: ListEndpoint,
  query: Q,
  fetchPage: (query: Q) => Promise<Page<T>>,
): AsyncGenerator<Page<T>, void, undefined> {
  assertOneCursor(endpoint, query);
  let next: Q = query;
  for (;;) {
    const page = await fetchPage(next);
    yield page;
    if (!page.metadata.has_next) return;
    const after = page.metadata.after;
    if (!after || after === next.after) {
      throw new BankInvalidResponseError(
        `metadata.has_next is true but metadata.after ${after ? 'repeats the cursor just used' : 'is null'}`,
        pagingContext(endpoint),
      );
    }
    next = { ...query, before: undefined, after };
  }
}

/** Every record of every page, in the bank's order. */
export async function* eachRecord<Q extends PageCursors, T>(
  endpoint: ListEndpoint,
  query: Q,
  fetchPage: (query: Q) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  for await (const page of eachPage(endpoint, query, fetchPage)) yield* page.data;
}

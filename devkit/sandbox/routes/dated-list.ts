import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { keyOf, paginate, readPageRequest } from '../pagination.js';
import { parseParameters } from '../query.js';

type PagedQuery = { before?: string | undefined; after?: string | undefined };

/**
 * A list of the bank's data records, oldest first by timestamp then id, answering errors with a single body.
 */
export interface DatedList<S extends z.ZodType<PagedQuery>, T extends { timestamp: string; id: string }> {
  path: string;
  /** What the list's cursors belong to; a cursor of another list is refused. */
  scope: string;
  query: S;
  matching(query: z.infer<S>): T[];
}

export function addDatedListRoute<
  S extends z.ZodType<PagedQuery>,
  T extends { timestamp: string; id: string },
>(app: FastifyInstance, list: DatedList<S, T>): void {
  app.get(list.path, { config: { errorShape: 'single' } }, async (request, reply) => {
    const query = parseParameters(reply, 'query', list.query, request.query);
    if (!query) return reply;
    const page = readPageRequest(reply, list.scope, query);
    if (!page) return reply;
    return paginate(list.scope, list.matching(query), (record) => keyOf(record.timestamp, record.id), page);
  });
}

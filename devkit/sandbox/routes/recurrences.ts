import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  collectionAttemptListQuerySchema,
  maxCollectionAttemptPageSize,
  type CollectionAttempt,
  type CollectionAttemptListQuery,
} from '../../../src/bank/schemas/collection-attempt.js';
import { uuid } from '../../../src/bank/schemas/common.js';
import {
  generateRecurrenceRequestSchema,
  type GenerateRecurrenceRequest,
} from '../../../src/bank/schemas/recurrence.js';
import { sendError, sendValidationErrors, zodErrorItems } from '../errors.js';
import { answerRepeatedCreate } from '../repeated-create.js';
import {
  defaultPageSize,
  keyOf,
  paginate,
  paginateOrdered,
  readPageRequest,
  searchKeys,
  type PageRequest,
} from '../pagination.js';
import { parseParameters, withinWindow } from '../query.js';
import { ownerOf } from '../seed/accounts.js';
import { listedAttempt } from '../seed/collection-attempts.js';
import { buildRecurrence } from '../seed/recurrences.js';
import type { SandboxState } from '../state.js';

/**
 * A page of the attempts a query matches. The sync's query (a window, no other filter) reads the stored order
 * by binary search; other filters, and reads that lag behind writes (whose older contents may sit elsewhere
 * in the order), filter and sort every attempt.
 */
function listAttempts(state: SandboxState, query: CollectionAttemptListQuery, page: PageRequest) {
  const scope = 'collection-attempts';
  const filtered =
    query.entity_id !== undefined || query.recurrence_id !== undefined || query.collection_id !== undefined;
  if (filtered || state.reads.lagging) {
    const matching = [...state.bankData.attempts.values()].flatMap((stored) => {
      const attempt = state.reads.attempt(stored);
      return attempt && matches(attempt, query) ? [attempt] : [];
    });
    return paginate(scope, matching, (attempt) => keyOf(attempt.timestamp, attempt.id), page);
  }
  const ordered = state.bankData.attempts.inListOrder();
  const bound = (at: string | undefined, otherwise: number) =>
    at === undefined ? otherwise : searchKeys(ordered, { time: Date.parse(at), id: '' });
  return paginateOrdered(
    scope,
    ordered,
    page,
    bound(query.from_datetime, 0),
    bound(query.to_datetime, ordered.length),
  );
}

export const collectionAttemptsPath = '/banking/cashin/pix/recurrences/collections/attempts';

const idParamsSchema = z.strictObject({ id: uuid });

/**
 * Magic amount, like the payments': a minimum amount whose cents end in 92 is rejected by the payer's bank.
 */
const rejectedByPayer = (request: GenerateRecurrenceRequest) => (request.amounts?.minimum ?? 0) % 100 === 92;

function matches(attempt: CollectionAttempt, query: CollectionAttemptListQuery): boolean {
  return (
    withinWindow(attempt.timestamp, query.from_datetime, query.to_datetime) &&
    (query.entity_id === undefined || attempt.entity_id === query.entity_id) &&
    (query.recurrence_id === undefined || attempt.recurrence_id === query.recurrence_id) &&
    (query.collection_id === undefined || attempt.collection_id === query.collection_id)
  );
}

/**
 * Generate a recurrence, list and read its collection attempts; all answer errors in the errors-list form.
 */
export function recurrenceRoutes(app: FastifyInstance, state: SandboxState): void {
  app.post('/banking/cashin/pix/recurrences', { config: { errorShape: 'list' } }, async (request, reply) => {
    const parsed = generateRecurrenceRequestSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const data = state.bankData;
    const externalId = parsed.data.external_id;
    const first = data.recurrenceByExternalId(externalId);
    if (first) return answerRepeatedCreate(reply, 'recurrence', externalId, first, parsed.data);
    const owner = ownerOf(state.world, parsed.data.virtual_account_id);
    if (!owner) {
      return sendValidationErrors(reply, [
        {
          title: 'INVALID_PARAMETER',
          detail: `virtual account ${parsed.data.virtual_account_id} does not belong to this organisation`,
          source: { pointer: '/virtual_account_id' },
        },
      ]);
    }
    const recurrence = buildRecurrence(
      data.random,
      parsed.data,
      owner,
      state.world,
      new Date(),
      rejectedByPayer(parsed.data) ? 'rejected' : 'approved',
    );
    data.addRecurrence(recurrence, parsed.data);
    return { data: recurrence };
  });

  app.get(collectionAttemptsPath, { config: { errorShape: 'list' } }, async (request, reply) => {
    const query = parseParameters(reply, 'query', collectionAttemptListQuerySchema, request.query);
    if (!query) return reply;
    const limit = Math.min(query.limit ?? defaultPageSize, maxCollectionAttemptPageSize);
    const page = readPageRequest(reply, 'collection-attempts', query, limit);
    if (!page) return reply;
    const result = listAttempts(state, query, page);
    return { data: result.data.map(listedAttempt), metadata: result.metadata };
  });

  app.get(`${collectionAttemptsPath}/:id`, { config: { errorShape: 'list' } }, async (request, reply) => {
    const params = parseParameters(reply, 'path', idParamsSchema, request.params);
    if (!params) return reply;
    const stored = state.bankData.attempts.get(params.id);
    const attempt = stored && state.reads.attempt(stored);
    if (!attempt) {
      return sendError(reply, 404, 'NOT_FOUND', `collection attempt ${params.id} not found`, '/path/id');
    }
    return { data: attempt };
  });
}

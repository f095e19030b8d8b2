import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  collectionAttemptStatusSchema,
  type CollectionAttempt,
} from '../../../src/bank/schemas/collection-attempt.js';
import { dateTime, uuid } from '../../../src/bank/schemas/common.js';
import type { Recurrence } from '../../../src/bank/schemas/recurrence.js';
import { webhookCategories } from '../../../src/bank/schemas/webhook.js';
import { sendError, sendValidationErrors, zodErrorItems } from '../errors.js';
import { parseParameters } from '../query.js';
import { buildAttempt, canMove, moveAttempt } from '../seed/collection-attempts.js';
import { dayMs, plusMs } from '../seed/generators.js';
import type { SandboxState } from '../state.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { bulkShape, bulkWindow, withOrderedWindow } from './bulk-window.js';

const idParamsSchema = z.strictObject({ id: uuid });

const producedAttemptSchema = z.strictObject({
  status: collectionAttemptStatusSchema,
  /** When the attempt happened; now when absent. */
  timestamp: dateTime.optional(),
  /** Another try of an existing collection; a new collection when absent. */
  collection_id: uuid.optional(),
  due_date: dateTime.optional(),
});

const produceSchema = z.strictObject({ attempts: z.array(producedAttemptSchema).min(1).max(1_000) });

/**
 * Many attempts at once, spread evenly over [from, to), e.g. to give a sync 10,000 records to page through.
 */
const bulkSchema = withOrderedWindow(
  z.strictObject({
    ...bulkShape(z.array(collectionAttemptStatusSchema).min(1).default(['settled'])),
    /** Off by default: ten thousand webhooks would bury the ones a test is waiting for. */
    webhooks: z.boolean().default(false),
  }),
);

const statusSchema = z.strictObject({
  status: collectionAttemptStatusSchema,
  timestamp: dateTime.optional(),
});

const dayOf = (at: Date) => new Date(Math.floor(at.getTime() / dayMs) * dayMs);

/**
 * The bank's side of recurrences for tests and demos: collection attempts produced for a recurrence (each
 * announced by a `recurrence_collection_attempt` webhook whose type is its status), bulk attempts, and status
 * moves of a `created` attempt. Unauthenticated, like the rest of /sandbox.
 */
export function recurrenceControlRoutes(
  app: FastifyInstance,
  state: SandboxState,
  webhooks: WebhookDispatcher,
): void {
  const announce = (attempt: CollectionAttempt) =>
    webhooks.publish({
      category: webhookCategories.recurrenceCollectionAttempt,
      type: attempt.status,
      ref_id: attempt.id,
      data: attempt,
    });

  const recurrenceFor = (id: string): Recurrence | undefined => state.bankData.recurrences.get(id);

  /** The recurrence the path names and the checked body, or undefined once the error answer has been sent. */
  function recurrenceAndBody<S extends z.ZodType>(
    request: FastifyRequest,
    reply: FastifyReply,
    schema: S,
  ): { recurrence: Recurrence; body: z.infer<S> } | undefined {
    const params = parseParameters(reply, 'path', idParamsSchema, request.params);
    if (!params) return undefined;
    const recurrence = recurrenceFor(params.id);
    if (!recurrence) {
      sendError(reply, 404, 'NOT_FOUND', `recurrence ${params.id} not found`, '/path/id');
      return undefined;
    }
    const parsed = schema.safeParse(request.body ?? {});
    if (!parsed.success) {
      sendValidationErrors(reply, zodErrorItems(parsed.error));
      return undefined;
    }
    return { recurrence, body: parsed.data };
  }

  app.post('/sandbox/recurrences/:id/attempts', async (request, reply) => {
    const found = recurrenceAndBody(request, reply, produceSchema);
    if (!found) return reply;
    const { recurrence, body } = found;
    const data = state.bankData;
    const attempts = body.attempts.map((produced) => {
      const at = produced.timestamp ? new Date(produced.timestamp) : new Date();
      const sameCollection = produced.collection_id
        ? [...data.attempts.values()].find((attempt) => attempt.collection_id === produced.collection_id)
        : undefined;
      const attempt = buildAttempt(data.random, {
        recurrence,
        collectionId: produced.collection_id ?? data.random.uuid(),
        txid: sameCollection?.txid ?? data.random.hex(32),
        scheduledAt: sameCollection ? new Date(sameCollection.collection_timestamp) : at,
        dueDate: produced.due_date ? new Date(produced.due_date) : dayOf(at),
        at,
        status: produced.status,
        retry: sameCollection !== undefined,
      });
      data.attempts.set(attempt.id, attempt);
      state.reads.attempts.created(attempt.id, attempt);
      announce(attempt);
      return attempt;
    });
    return reply.code(201).send({ data: attempts });
  });

  app.post('/sandbox/recurrences/:id/attempts/bulk', async (request, reply) => {
    const found = recurrenceAndBody(request, reply, bulkSchema);
    if (!found) return reply;
    const { recurrence, body } = found;
    const { from, to } = bulkWindow(body);
    const step = (to.getTime() - from.getTime()) / body.count;
    const data = state.bankData;
    const ids: string[] = [];
    for (let index = 0; index < body.count; index++) {
      const at = plusMs(from, Math.floor(index * step));
      const attempt = buildAttempt(data.random, {
        recurrence,
        collectionId: data.random.uuid(),
        txid: data.random.hex(32),
        scheduledAt: at,
        dueDate: dayOf(at),
        at,
        status: body.statuses[index % body.statuses.length]!,
        retry: false,
      });
      data.attempts.set(attempt.id, attempt);
      if (body.webhooks) announce(attempt);
      ids.push(attempt.id);
    }
    return reply.code(201).send({
      data: {
        recurrence_id: recurrence.id,
        created: ids.length,
        from: from.toISOString(),
        to: to.toISOString(),
        first_attempt_id: ids[0],
        last_attempt_id: ids[ids.length - 1],
      },
    });
  });

  app.post('/sandbox/collection-attempts/:id/status', async (request, reply) => {
    const params = parseParameters(reply, 'path', idParamsSchema, request.params);
    if (!params) return reply;
    const attempt = state.bankData.attempts.get(params.id);
    const recurrence = attempt?.recurrence_id ? recurrenceFor(attempt.recurrence_id) : undefined;
    if (!attempt || !recurrence) {
      return sendError(reply, 404, 'NOT_FOUND', `collection attempt ${params.id} not found`, '/path/id');
    }
    const parsed = statusSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    if (!canMove(attempt, parsed.data.status)) {
      return sendError(
        reply,
        409,
        'INVALID_TRANSITION',
        `a ${attempt.status} attempt cannot become ${parsed.data.status}`,
        '/status',
      );
    }
    const at = parsed.data.timestamp ? new Date(parsed.data.timestamp) : new Date();
    const before = structuredClone(attempt);
    moveAttempt(state.bankData.random, attempt, recurrence, parsed.data.status, at);
    state.bankData.attempts.touched();
    state.reads.attempts.changed(attempt.id, attempt, before);
    announce(attempt);
    return { data: attempt };
  });
}

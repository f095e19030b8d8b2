import { z } from 'zod';
import { generateRecurrenceRequestSchema } from '../../bank/schemas/recurrence.js';
import { cancelBoleto, cancelBoletoInput } from '../../starter/boletos.js';
import {
  cancelInput,
  cancelRecurrence,
  getRecurrence,
  recurrenceKey,
  startRecurrence,
} from '../../starter/recurrences.js';
import { derivedId } from '../idempotency.js';
import { route } from '../route.js';

/**
 * How long a boleto cancel is waited for over HTTP; a repeat under the same Idempotency-Key joins it after.
 */
const boletoCancelWaitMs = 60_000;

/** Pix recurrences, keyed by their external id, and boleto cancels. */
export const recurrenceRoutes = [
  route({
    method: 'POST',
    path: '/v1/recurrences',
    operationId: 'startRecurrence',
    tag: 'Recurrences',
    summary: "Generate (or join) a Pix recurrence; answers the bank's recurrence",
    description: 'Without external_id, one is derived from the Idempotency-Key.',
    body: generateRecurrenceRequestSchema.partial({ external_id: true }),
    call: async (ctx, { body, idempotency }) => ({
      body: await startRecurrence(ctx.starter, {
        ...body,
        external_id: body.external_id ?? derivedId(idempotency, 'recurrence'),
      }),
    }),
  }),
  route({
    method: 'GET',
    path: '/v1/recurrences/{externalId}',
    operationId: 'getRecurrence',
    tag: 'Recurrences',
    summary: "Where a recurrence stands: the bank's record and its attempts",
    params: recurrenceKey,
    call: async (ctx, { params }) => ({ body: await getRecurrence(ctx.starter, params) }),
  }),
  route({
    method: 'POST',
    path: '/v1/recurrences/{externalId}/cancellation',
    operationId: 'cancelRecurrence',
    tag: 'Recurrences',
    summary: 'Stop following a recurrence, with the reason; the bank keeps its status',
    params: recurrenceKey,
    body: cancelInput.pick({ reason: true }),
    call: async (ctx, { params, body, idempotency }) => ({
      body: await cancelRecurrence(ctx.starter, {
        ...params,
        reason: body.reason,
        requestId: derivedId(idempotency, 'request'),
      }),
    }),
  }),
  route({
    method: 'POST',
    path: '/v1/boletos/{boletoId}/cancellation',
    operationId: 'cancelBoleto',
    tag: 'Boletos',
    summary: "Cancel a boleto at the bank; answers the bank's boleto once it shows cancelled",
    description:
      'Waits up to 60 s; past it the answer is 504 and the same request again joins the cancel still running.',
    params: cancelBoletoInput,
    body: z.strictObject({}),
    call: async (ctx, { params }) => ({
      body: await ctx.starter.client.withDeadline(Date.now() + boletoCancelWaitMs, () =>
        cancelBoleto(ctx.starter, params),
      ),
    }),
  }),
];

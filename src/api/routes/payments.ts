import { z } from 'zod';
import {
  authorizeInput,
  getAuthorizationOptions,
  getPayment,
  paymentKey,
  startPayment,
  startPaymentInput,
  waitForPaymentResult,
  authorizePayment,
} from '../../starter/payments.js';
import { paymentStateSchema } from '../../starter/published-state.js';
import { derivedId } from '../idempotency.js';
import { isDeadlineExceeded } from '../problems.js';
import { route } from '../route.js';
import { optionsAnswer } from './options-answer.js';

/** The longest a result request waits: below the usual 60 s idle timeouts of proxies and load balancers. */
export const maxResultWaitSeconds = 50;

const resultQuery = z.object({
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(maxResultWaitSeconds)
    .default(30)
    .describe(`Seconds to wait for the final result, at most ${maxResultWaitSeconds}`),
});

/** Steps 7-10: a Pix payment on an authorized enrollment, keyed by its external id. */
export const paymentRoutes = [
  route({
    method: 'POST',
    path: '/v1/payments',
    operationId: 'startPayment',
    tag: 'Payments',
    summary: 'Start (or join) a payment; answers the bank payment and the authorization options',
    description:
      'Without externalId, one is derived from the Idempotency-Key; keep it to follow the payment.',
    body: startPaymentInput,
    call: async (ctx, { body, idempotency }) => ({
      body: await startPayment(ctx.starter, {
        ...body,
        externalId: body.externalId ?? derivedId(idempotency, 'payment'),
      }),
    }),
  }),
  route({
    method: 'GET',
    path: '/v1/payments/{externalId}',
    operationId: 'getPayment',
    tag: 'Payments',
    summary: 'Where a payment stands, with the evidence gathered so far',
    params: paymentKey,
    answer: paymentStateSchema,
    call: async (ctx, { params }) => ({ body: await getPayment(ctx.starter, params) }),
  }),
  route({
    method: 'POST',
    path: '/v1/payments/{externalId}/authorization-options',
    operationId: 'getAuthorizationOptions',
    tag: 'Payments',
    summary: 'Fresh authorization options for the widget, while the consent window is open',
    params: paymentKey,
    body: z.strictObject({}),
    answer: optionsAnswer,
    call: async (ctx, { params, idempotency }) => ({
      body: {
        options: await getAuthorizationOptions(ctx.starter, {
          ...params,
          requestId: derivedId(idempotency, 'request'),
        }),
      },
    }),
  }),
  route({
    method: 'POST',
    path: '/v1/payments/{externalId}/authorization',
    operationId: 'authorizePayment',
    tag: 'Payments',
    summary: "Send the widget's assertion; answers the new status or the bank's reason for refusing it",
    params: paymentKey,
    body: authorizeInput.pick({ assertion: true }),
    call: async (ctx, { params, body, idempotency }) => ({
      body: await authorizePayment(ctx.starter, {
        ...params,
        assertion: body.assertion,
        requestId: derivedId(idempotency, 'request'),
      }),
    }),
  }),
  route({
    method: 'GET',
    path: '/v1/payments/{externalId}/result',
    operationId: 'waitForPaymentResult',
    tag: 'Payments',
    summary: 'Wait up to `wait` seconds for the final result (long poll)',
    description:
      'Answers 200 with `{ final: true, result }` as soon as the payment ended, or 202 with `{ final: false, state }` ' +
      'when the wait ends first: ask again.',
    params: paymentKey,
    query: resultQuery,
    otherAnswers: {
      202: {
        description: 'Not final when the wait ended: the current state; ask again',
        schema: z.object({ final: z.literal(false), state: paymentStateSchema }),
      },
    },
    call: async (ctx, { params, query }) => {
      try {
        const result = await ctx.starter.client.withDeadline(Date.now() + query.wait * 1000, () =>
          waitForPaymentResult(ctx.starter, params),
        );
        return { body: { final: true, result } };
      } catch (error) {
        if (!isDeadlineExceeded(error)) throw error;
        return { status: 202, body: { final: false, state: await getPayment(ctx.starter, params) } };
      }
    },
  }),
];

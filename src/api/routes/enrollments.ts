import { z } from 'zod';
import {
  enrollmentKey,
  getEnrollment,
  getRegistrationOptions,
  registerCredential,
  registerInput,
  startEnrollment,
  startEnrollmentInput,
} from '../../starter/enrollments.js';
import { enrollmentStateSchema } from '../../starter/published-state.js';
import { derivedId } from '../idempotency.js';
import { route } from '../route.js';
import { optionsAnswer } from './options-answer.js';

const enrollmentPath = '/v1/enrollments/{deviceId}/{participantId}';

/** Steps 4-6: a device's enrollment with a participant, keyed by both. */
export const enrollmentRoutes = [
  route({
    method: 'POST',
    path: '/v1/enrollments',
    operationId: 'startEnrollment',
    tag: 'Enrollments',
    summary: 'Start (or join) the enrollment of a device with a participant',
    description:
      'Answers the redirectUrl to send the customer to. Without externalId, one is derived from the Idempotency-Key.',
    body: startEnrollmentInput,
    call: async (ctx, { body, idempotency }) => ({
      body: await startEnrollment(ctx.starter, {
        ...body,
        externalId: body.externalId ?? derivedId(idempotency, 'enrollment'),
      }),
    }),
  }),
  route({
    method: 'GET',
    path: enrollmentPath,
    operationId: 'getEnrollment',
    tag: 'Enrollments',
    summary: 'Where an enrollment stands',
    params: enrollmentKey,
    answer: enrollmentStateSchema,
    call: async (ctx, { params }) => ({ body: await getEnrollment(ctx.starter, params) }),
  }),
  route({
    method: 'POST',
    path: `${enrollmentPath}/registration-options`,
    operationId: 'getRegistrationOptions',
    tag: 'Enrollments',
    summary: 'Fresh WebAuthn creation options, once the account holder authorized at the bank',
    params: enrollmentKey,
    body: z.strictObject({}),
    answer: optionsAnswer,
    call: async (ctx, { params, idempotency }) => ({
      body: {
        options: await getRegistrationOptions(ctx.starter, {
          ...params,
          requestId: derivedId(idempotency, 'request'),
        }),
      },
    }),
  }),
  route({
    method: 'POST',
    path: `${enrollmentPath}/credential`,
    operationId: 'registerCredential',
    tag: 'Enrollments',
    summary: 'Register the credential the device created',
    params: enrollmentKey,
    body: registerInput.pick({ assertion: true }),
    call: async (ctx, { params, body, idempotency }) => ({
      body: await registerCredential(ctx.starter, {
        ...params,
        assertion: body.assertion,
        requestId: derivedId(idempotency, 'request'),
      }),
    }),
  }),
];

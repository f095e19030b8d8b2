import type { FastifyReply, FastifyRequest } from 'fastify';
import { WorkflowFailedError, isGrpcDeadlineError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { z } from 'zod';
import { BankError } from '../bank/errors.js';
import { InvalidInputError } from '../starter/errors.js';
import {
  BankUnreachableError,
  RequestRefusedError,
  RequestTimedOutError,
} from '../starter/merchant-requests.js';
import { StartTermsConflictError } from '../starter/start-terms.js';

/** One field a problem concerns, and why: what a form shows next to the field. */
export const fieldErrorSchema = z.object({ field: z.string(), reason: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** An RFC 9457 problem detail, as every failed request is answered (`application/problem+json`). */
export const problemSchema = z.object({
  type: z
    .string()
    .describe('A relative URI naming the kind of problem, /problems/<kind>; docs/merchant-api.md lists them'),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  instance: z.string().describe("The request's path"),
  requestId: z.string(),
  errors: z.array(fieldErrorSchema),
  retryable: z.boolean().optional().describe('Whether asking again may get another answer'),
  sameId: z
    .boolean()
    .optional()
    .describe('Whether to ask again under the same Idempotency-Key (true) or a new one (false)'),
  refusal: z.string().optional().describe('The kind of refusal, e.g. EnrollmentNotAuthorized'),
});
export type Problem = z.infer<typeof problemSchema>;

/** A problem an API route raises itself, before or after the starter answers. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly kind: string,
    readonly title: string,
    detail: string,
    readonly errors: FieldError[] = [],
    readonly extra: Pick<Problem, 'retryable' | 'sameId' | 'refusal'> & { retryAfterSeconds?: number } = {},
  ) {
    super(detail);
    this.name = 'ApiProblem';
  }
}

/**
 * Problem types are relative URIs, resolved against the API's own address (RFC 9457, 3.1.1): bankflow owns no
 * domain to name them under. docs/merchant-api.md lists every one.
 */
export const problemTypeBase = '/problems/';

/** A zod failure of a request's parameters, query or body: every issue, each naming its field. */
export function invalidRequest(error: z.ZodError, where: string): ApiProblem {
  const errors = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || where,
    reason: issue.message,
  }));
  return new ApiProblem(
    400,
    'invalid-request',
    'Invalid request',
    `the request's ${where} is invalid: ${errors.map((error) => `${error.field}: ${error.reason}`).join('; ')}`,
    errors,
  );
}

/** Seconds a retryable failure asks the caller to wait before asking again. */
const retryAfterSeconds = 1;

/** What a starter, bank or Temporal error means to a merchant backend over HTTP. */
export function problemFor(error: unknown): ApiProblem {
  if (error instanceof ApiProblem) return error;
  if (error instanceof InvalidInputError)
    return new ApiProblem(422, 'invalid-input', 'Invalid input', error.message, [
      { field: error.field, reason: error.reason },
    ]);
  if (error instanceof StartTermsConflictError)
    return new ApiProblem(
      409,
      'start-terms-conflict',
      'Started with other terms',
      error.message,
      error.fields.map((field) => ({ field, reason: 'differs from the first start' })),
    );
  if (error instanceof RequestTimedOutError)
    return new ApiProblem(504, 'timed-out', 'No answer in time', error.message, [], {
      retryable: true,
      sameId: true,
      retryAfterSeconds,
    });
  if (error instanceof BankUnreachableError)
    return new ApiProblem(503, 'bank-unreachable', 'Bank unreachable', error.message, [], {
      retryable: true,
      sameId: false,
      refusal: error.type,
      retryAfterSeconds,
    });
  if (error instanceof RequestRefusedError)
    return new ApiProblem(422, 'refused', 'Request refused', error.message, [], {
      retryable: error.retryable,
      sameId: error.sameId,
      ...(error.type ? { refusal: error.type } : {}),
    });
  if (error instanceof WorkflowNotFoundError)
    return new ApiProblem(404, 'not-found', 'Not found', 'nothing was started under this id');
  if (error instanceof WorkflowFailedError)
    return new ApiProblem(422, 'failed', 'Failed', error.cause?.message ?? error.message);
  if (error instanceof BankError && error.type === 'BankNotFound')
    return new ApiProblem(404, 'not-found', 'Not found', error.message);
  if (error instanceof BankError)
    return error.retryable
      ? new ApiProblem(503, 'bank-unavailable', 'Bank unavailable', error.message, [], {
          retryable: true,
          sameId: true,
          retryAfterSeconds,
        })
      : new ApiProblem(422, 'bank-refused', 'The bank refused the request', error.message, [], {
          retryable: false,
          refusal: error.type,
        });
  if (isDeadlineExceeded(error))
    return new ApiProblem(504, 'timed-out', 'No answer in time', 'Temporal did not answer in time', [], {
      retryable: true,
      sameId: true,
      retryAfterSeconds,
    });
  return new ApiProblem(
    500,
    'internal',
    'Internal error',
    'the request failed; its Request-Id is in the logs',
  );
}

/** Answers `problem` as `application/problem+json`, with Retry-After where asking again may help. */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ApiProblem): FastifyReply {
  const { retryAfterSeconds: after, ...extra } = problem.extra;
  if (after !== undefined) reply.header('retry-after', String(after));
  const body: Problem = {
    type: `${problemTypeBase}${problem.kind}`,
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    instance: request.url.split('?')[0] ?? request.url,
    requestId: request.id,
    errors: problem.errors,
    ...extra,
  };
  return reply.code(problem.status).type('application/problem+json').send(body);
}

/**
 * Whether a Temporal call ran past the deadline its caller set (the client wraps the gRPC error in its own).
 */
export const isDeadlineExceeded = (error: unknown): boolean => isGrpcDeadlineError(error);

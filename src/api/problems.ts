import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { WorkflowFailedError, isGrpcDeadlineError } from '@temporalio/client';
import { ApplicationFailure, TemporalFailure, WorkflowNotFoundError } from '@temporalio/common';
import { z } from 'zod';
import { BankError } from '../bank/errors.js';
import { bankErrorRetryable, type BankErrorType } from '../bank/vocabulary.js';
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
  instance: z
    .string()
    .describe(
      "The request's path; `urn:uuid:<requestId>` when the request's line never arrived (a 408 or 431 answer)",
    ),
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

/** A member path as a field name (`counterparty.tax_number`), or `where` for the whole. */
const fieldName = (path: readonly PropertyKey[], where: string) => path.map(String).join('.') || where;

/**
 * A zod failure of a request's parameters, query or body: every issue, each naming its field. An unknown
 * member of a strict object names the member itself, one error each, not the object holding it.
 */
export function invalidRequest(error: z.ZodError, where: string): ApiProblem {
  const errors = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({
          field: fieldName([...issue.path, key], where),
          reason: 'is not a member this request takes',
        }))
      : [{ field: fieldName(issue.path, where), reason: issue.message }],
  );
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

/** What the bank's failure of a type means to a merchant backend: not found, unavailable, or refused. */
function bankProblem(type: BankErrorType, message: string): ApiProblem {
  if (type === 'BankNotFound') return new ApiProblem(404, 'not-found', 'Not found', message);
  return bankErrorRetryable[type]
    ? new ApiProblem(503, 'bank-unavailable', 'Bank unavailable', message, [], {
        retryable: true,
        sameId: true,
        retryAfterSeconds,
      })
    : new ApiProblem(422, 'bank-refused', 'The bank refused the request', message, [], {
        retryable: false,
        refusal: type,
      });
}

const isBankErrorType = (type: string | undefined | null): type is BankErrorType =>
  type != null && Object.hasOwn(bankErrorRetryable, type);

/**
 * What a workflow's failure means: the failure it ended with, beneath the activity (or child) failures that
 * carried it up. A bank failure (an unknown boleto is the bank's BankNotFound) is answered as the bank's
 * error would be; any other as `failed`, with its type as the `refusal`.
 */
function failedWorkflowProblem(error: WorkflowFailedError): ApiProblem {
  let failure = error.cause;
  while (failure?.cause instanceof TemporalFailure) failure = failure.cause;
  const type = failure instanceof ApplicationFailure ? failure.type : undefined;
  const message = failure?.message ?? error.message;
  if (isBankErrorType(type)) return bankProblem(type, message);
  return new ApiProblem(422, 'failed', 'Failed', message, [], type ? { refusal: type } : {});
}

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
  if (error instanceof WorkflowFailedError) return failedWorkflowProblem(error);
  if (error instanceof BankError) return bankProblem(error.type, error.message);
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

/** The problem document of `problem`, for the request `instance` names under `requestId`. */
function problemDocument(problem: ApiProblem, instance: string, requestId: string): Problem {
  // Retry-After is a header, not a member.
  const { retryable, sameId, refusal } = problem.extra;
  return {
    type: `${problemTypeBase}${problem.kind}`,
    title: problem.title,
    status: problem.status,
    detail: problem.message,
    instance,
    requestId,
    errors: problem.errors,
    ...(retryable === undefined ? {} : { retryable }),
    ...(sameId === undefined ? {} : { sameId }),
    ...(refusal === undefined ? {} : { refusal }),
  };
}

/**
 * Answers `problem` as `application/problem+json`, with the Request-Id (also where no hook ran, as for
 * Fastify's refusals of a URL) and Retry-After where asking again may help.
 */
export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ApiProblem): FastifyReply {
  const after = problem.extra.retryAfterSeconds;
  if (after !== undefined) reply.header('retry-after', String(after));
  const instance = request.url.split('?')[0] ?? request.url;
  return reply
    .code(problem.status)
    .header('request-id', request.id)
    .type('application/problem+json')
    .send(problemDocument(problem, instance, request.id));
}

/** The limits a request meets before any route runs, as Fastify's refusals of them name them. */
export interface RequestLimits {
  /** Fastify's `bodyLimit`. */
  bodyBytes: number;
  /** The router's `maxParamLength`. */
  paramLength: number;
}

/**
 * What Fastify's own refusals of a request (its URL, body or media type, before any route runs) mean to the
 * caller: each names what to fix. An unknown refusal of the caller's keeps Fastify's status and message.
 */
export function frameworkProblem(error: FastifyError, limits: RequestLimits): ApiProblem {
  const fields: Record<string, FieldError> = {
    FST_ERR_BAD_URL: { field: 'path', reason: 'is not a valid URL (malformed percent-encoding)' },
    FST_ERR_MAX_PARAM_LENGTH: {
      field: 'path',
      reason: `holds a parameter of more than ${limits.paramLength} characters, more than any route takes`,
    },
    FST_ERR_CTP_BODY_TOO_LARGE: { field: 'body', reason: `is larger than ${limits.bodyBytes} bytes` },
    FST_ERR_CTP_INVALID_MEDIA_TYPE: { field: 'Content-Type', reason: 'must be application/json' },
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: { field: 'Content-Length', reason: 'is not the length of the body' },
    FST_ERR_CTP_EMPTY_JSON_BODY: { field: 'body', reason: 'is empty: send {} for a body without members' },
    // Fastify's parser refuses a body setting __proto__ or constructor.prototype as it refuses bad JSON.
    FST_ERR_CTP_INVALID_JSON_BODY: {
      field: 'body',
      reason: 'is not valid JSON, or sets __proto__ or constructor.prototype',
    },
  };
  const status = error.statusCode !== undefined && error.statusCode >= 400 ? error.statusCode : 400;
  const known = fields[error.code];
  return known
    ? new ApiProblem(
        status,
        'invalid-request',
        'Invalid request',
        `the request's ${known.field} ${known.reason}`,
        [known],
      )
    : new ApiProblem(status, 'invalid-request', 'Invalid request', error.message);
}

/** The error Node reports on a connection whose request it could not read (Fastify's ConnectionError). */
interface ConnectionError extends Error {
  code?: string;
}

/** What a client error Node reports on a connection, rather than on a request, means to the caller. */
function clientErrorProblem(error: ConnectionError, limits: { headersMs: number; requestMs: number }) {
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return new ApiProblem(
      408,
      'request-timeout',
      'Request not received in time',
      `the request was not received in time: its headers within ${limits.headersMs / 1000} s, ` +
        `all of it within ${limits.requestMs / 1000} s; send it again, with the same Idempotency-Key`,
      [],
      { retryable: true, sameId: true },
    );
  if (error.code === 'HPE_HEADER_OVERFLOW')
    return new ApiProblem(431, 'invalid-request', 'Invalid request', "the request's headers are too large", [
      { field: 'headers', reason: 'are larger than the server reads (16 KiB)' },
    ]);
  return new ApiProblem(400, 'invalid-request', 'Invalid request', 'the request is not valid HTTP/1.1', [
    { field: 'request', reason: 'is not valid HTTP/1.1' },
  ]);
}

/**
 * Answers a client error Node reports on the connection (a request not received in time, headers too large,
 * bytes that are not HTTP) as a problem written on the socket, which then closes: no route, nor Fastify's
 * reply, runs for it. `request` is the request whose body was still arriving, when its headers had: the
 * problem carries its id and path; otherwise a new id, and `urn:uuid:<id>` as the instance.
 */
export function answerClientError(
  error: ConnectionError,
  socket: Socket,
  request: { id: string; url: string } | undefined,
  limits: { headersMs: number; requestMs: number },
): void {
  // A reset connection, or one already closed, has no one to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const problem = clientErrorProblem(error, limits);
  const requestId = request?.id ?? randomUUID();
  const instance = request ? (request.url.split('?')[0] ?? request.url) : `urn:uuid:${requestId}`;
  const body = JSON.stringify(problemDocument(problem, instance, requestId));
  if (socket.writable)
    socket.write(
      [
        `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}`,
        'content-type: application/problem+json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        `request-id: ${requestId}`,
        'connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  socket.destroy(error);
}

/**
 * Whether a Temporal call ran past the deadline its caller set (the client wraps the gRPC error in its own).
 */
export const isDeadlineExceeded = (error: unknown): boolean => isGrpcDeadlineError(error);

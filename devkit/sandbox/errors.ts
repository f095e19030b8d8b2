import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodError } from 'zod';
import type { ErrorItem, ErrorListBody, SingleErrorBody } from '../../src/bank/schemas/errors.js';

/** Which of the spec's two error bodies an endpoint family uses. */
export type ErrorShape = 'single' | 'list';

declare module 'fastify' {
  interface FastifyContextConfig {
    errorShape?: ErrorShape;
  }
}

export function singleError(code: string, message: string): SingleErrorBody {
  return { error: { error_code: code, error_message: message } };
}

export function errorList(errors: ErrorItem[]): ErrorListBody {
  return { errors };
}

/** The paths of the spec's single-error family: transfer list, refunds, boleto cancel and metrics. */
const singleErrorPaths = [
  /^\/banking\/cashout\/transfer(\/|$)/,
  /^\/banking\/cashin\/(refunds|boletos)(\/|$)/,
  /^\/banking\/metric(\/|$)/,
];

/**
 * The error body shape of a request: its route's when one matched, else the family its path falls in, so that
 * an unknown path, an unreadable body or a crash still answers in the shape its family's callers read.
 */
export function errorShapeOf(request: FastifyRequest): ErrorShape {
  const declared = request.routeOptions.config?.errorShape;
  if (declared) return declared;
  const path = request.url.split('?')[0] ?? request.url;
  return singleErrorPaths.some((pattern) => pattern.test(path)) ? 'single' : 'list';
}

/** Answers with the error body shape of the route being served. */
export function sendError(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  pointer = '',
): FastifyReply {
  const body =
    errorShapeOf(reply.request) === 'single'
      ? singleError(code, message)
      : errorList([{ title: code, detail: message, source: { pointer } }]);
  return reply.code(status).send(body);
}

/** 422 with one entry per offending request member. */
export function sendValidationErrors(reply: FastifyReply, errors: ErrorItem[]): FastifyReply {
  return reply.code(422).send(errorList(errors));
}

/** One errors-list entry per zod issue, pointing at the offending member with a JSON pointer. */
export function zodErrorItems(error: ZodError, prefix = ''): ErrorItem[] {
  return error.issues.map((issue) => ({
    title: 'INVALID_PARAMETER',
    detail: issue.message,
    source: { pointer: `${prefix}/${issue.path.map(String).join('/')}` },
  }));
}

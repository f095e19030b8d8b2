import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { ErrorItem } from '../../src/bank/schemas/errors.js';
import { errorList, errorShapeOf, singleError } from './errors.js';

/** Where a parameter sits in the request; error pointers read `/query/<name>` or `/path/<name>`. */
export type ParameterPart = 'query' | 'path';

export function parameterError(title: string, part: ParameterPart, name: string, message: string): ErrorItem {
  return { title, detail: `${name}: ${message}`, source: { pointer: `/${part}/${name}` } };
}

/**
 * One item per offending parameter: unknown, missing (REQUIRED_PARAMETER) or malformed (INVALID_PARAMETER).
 */
export function parameterErrorItems(
  error: z.ZodError,
  part: ParameterPart,
  raw: Record<string, unknown>,
): ErrorItem[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) =>
        parameterError('INVALID_PARAMETER', part, key, 'is not a parameter of this endpoint'),
      );
    }
    const name = String(issue.path[0]);
    return raw[name] === undefined
      ? [parameterError('REQUIRED_PARAMETER', part, name, 'is required')]
      : [parameterError('INVALID_PARAMETER', part, name, issue.message)];
  });
}

/**
 * Refuses path and query parameters with a 400 in the route's error shape (a body member gets 422):
 * errors-list endpoints with a pointer per parameter, single-error endpoints with the first item's code and
 * every parameter named in the message.
 */
export function sendParameterErrors(reply: FastifyReply, items: ErrorItem[]): FastifyReply {
  if (errorShapeOf(reply.request) === 'list') return reply.code(400).send(errorList(items));
  const code = items[0]?.title ?? 'INVALID_PARAMETER';
  return reply.code(400).send(singleError(code, items.map((item) => item.detail).join('; ')));
}

/** The parsed parameters, or undefined once the error answer has been sent. */
export function parseParameters<T extends z.ZodType>(
  reply: FastifyReply,
  part: ParameterPart,
  schema: T,
  raw: unknown,
): z.infer<T> | undefined {
  const values = (raw ?? {}) as Record<string, unknown>;
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  sendParameterErrors(reply, parameterErrorItems(parsed.error, part, values));
  return undefined;
}

/** The half-open window [from, to) every list and metric filters with; an absent bound is open. */
export function withinWindow(timestamp: string, from: string | undefined, to: string | undefined): boolean {
  const at = Date.parse(timestamp);
  if (from !== undefined && at < Date.parse(from)) return false;
  return to === undefined || at < Date.parse(to);
}

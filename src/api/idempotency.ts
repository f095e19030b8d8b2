import { createHash } from 'node:crypto';
import { ApiProblem } from './problems.js';

export const idempotencyHeader = 'Idempotency-Key';
/** An Idempotency-Key: 1 to 255 visible ASCII characters (U+0021 to U+007E: no space, no control). */
export const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

/**
 * What one Idempotency-Key stands for on one route: the ids its request carries to the starter. Temporal
 * keeps the rest: a start is keyed by its workflow id and terms, every other request by its update id, so a
 * repeat reaches the same workflow under the same id and gets the first answer, on any API process, with
 * nothing stored here.
 */
export interface IdempotencyScope {
  /** Hash of the route and the Idempotency-Key: what derived ids come from. */
  hash: string;
}

/**
 * The request's Idempotency-Key, or a 400 problem naming the header. The scope is the merchant's (one
 * deployment is one merchant, and every API key of it reads every journey), not the API key's: a request
 * repeated under a rotated key is the same request. The route is in it, so the same key on another route is
 * another request.
 */
export function idempotencyScope(
  header: string | string[] | undefined,
  route: { method: string; path: string },
): IdempotencyScope {
  const key = Array.isArray(header) ? header[0] : header;
  if (key === undefined || !idempotencyKeyPattern.test(key))
    throw new ApiProblem(
      400,
      'idempotency-key-required',
      'Idempotency-Key required',
      `every POST needs an ${idempotencyHeader} header of 1 to 255 visible ASCII characters (a UUID per operation); a repeat with the same key gets the first answer`,
      [
        {
          field: idempotencyHeader,
          reason: key === undefined ? 'is missing' : 'must be 1 to 255 visible ASCII characters',
        },
      ],
    );
  return { hash: createHash('sha256').update(`${route.method} ${route.path}\n${key}`).digest('base64url') };
}

/**
 * An id derived from the scope for the starter (`api-<hash>`): the same key gives the same id on every
 * process.
 */
export const derivedId = (scope: IdempotencyScope, purpose: string): string =>
  `api-${createHash('sha256').update(`${purpose}\n${scope.hash}`).digest('base64url').slice(0, 32)}`;

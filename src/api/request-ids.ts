import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A caller's X-Request-Id is kept when it is 1 to 64 letters, digits, `.`, `_` or `-`: nothing a log line or
 * a header could be forged with, and short. Any other (longer, spaced, two headers joined by a comma) is
 * dropped, neither logged nor echoed.
 */
const clientIdPattern = /^[A-Za-z0-9._-]{1,64}$/;

/** The header an answer echoes the caller's own id in, beside bankflow's `Request-Id`. */
export const clientRequestIdHeader = 'client-request-id';

/**
 * The request's id, which every answer (`Request-Id`) and log line (`requestId`) carries: always bankflow's
 * own, a new UUID, whatever the caller sent, so no caller can give its requests another's id and have their
 * log lines read as the other's. The caller's X-Request-Id is kept apart (`clientRequestIdOf`).
 */
export const requestIdOf = (): string => randomUUID();

/** The caller's X-Request-Id when it is plain and short enough to log and echo, else undefined. */
export function clientRequestIdOf(request: IncomingMessage): string | undefined {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && clientIdPattern.test(given) ? given : undefined;
}

/**
 * For the API's `onRequest` hook: the caller's own id, when plain, is echoed in `Client-Request-Id` and
 * carried by every later log line of the request as `clientRequestId`, beside bankflow's `requestId`, so a
 * merchant's report still finds its lines. It is the caller's word: two callers may send the same.
 */
export function keepClientRequestId(request: FastifyRequest, reply: FastifyReply): void {
  const clientRequestId = clientRequestIdOf(request.raw);
  if (clientRequestId === undefined) return;
  reply.header(clientRequestIdHeader, clientRequestId);
  request.log = request.log.child({ clientRequestId });
  reply.log = request.log;
}

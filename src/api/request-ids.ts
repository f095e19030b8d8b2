import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A caller's X-Request-Id is kept when it is plain enough to log and echo; otherwise a new one is made. */
const callerIdPattern = /^[\w.:-]{1,200}$/;

/** The request's id: the caller's X-Request-Id, or a new UUID. Every answer and log line carries it. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && callerIdPattern.test(given) ? given : randomUUID();
}

import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { singleError } from './errors.js';

export interface SandboxCredentials {
  clientId: string;
  clientSecret: string;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function credentialsMatch(header: string | undefined, expected: SandboxCredentials): boolean {
  const match = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return false;
  const idOk = sameText(decoded.slice(0, colon), expected.clientId);
  const secretOk = sameText(decoded.slice(colon + 1), expected.clientSecret);
  return idOk && secretOk;
}

/**
 * The spec's 401: one `UNAUTHORIZED` body for every endpoint (its Authentication section), with the
 * challenge.
 */
export const refuseCredentials = (reply: FastifyReply) =>
  reply
    .code(401)
    .header('www-authenticate', 'Basic realm="bank"')
    .send(singleError('UNAUTHORIZED', 'Invalid credentials'));

/** HTTP Basic on every bank endpoint; a miss is the spec's 401 `UNAUTHORIZED` body. */
export function basicAuth(expected: SandboxCredentials) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!credentialsMatch(request.headers.authorization, expected)) await refuseCredentials(reply);
  };
}

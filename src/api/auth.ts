import type { FastifyRequest } from 'fastify';
import { apiKeyName, type ApiKeyEntry } from './keys.js';
import { ApiProblem } from './problems.js';

/**
 * The bearer token of `Authorization: Bearer <key>`; nothing else (no query parameter, no cookie) carries a
 * key.
 */
const bearerToken = (header: string | undefined) => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];

/** The name of the API key a request carries, or a 401 problem saying what to send. */
export function authenticate(keys: readonly ApiKeyEntry[], request: FastifyRequest): string {
  const token = bearerToken(request.headers.authorization);
  const name = token === undefined ? undefined : apiKeyName(keys, token);
  if (name !== undefined) return name;
  throw new ApiProblem(
    401,
    'unauthorized',
    'Unauthorized',
    token === undefined
      ? 'send an API key as Authorization: Bearer <key>'
      : 'the API key is not one API_KEYS holds (revoked, or from another deployment)',
    [{ field: 'Authorization', reason: token === undefined ? 'is missing' : 'names no valid API key' }],
  );
}

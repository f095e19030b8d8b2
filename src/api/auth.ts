import type { FastifyRequest } from 'fastify';
import { apiKeyName, type ApiKeyEntry } from './keys.js';
import { ApiProblem } from './problems.js';

/**
 * The bearer token of `Authorization: Bearer <key>`; nothing else (no query parameter, no cookie) carries a
 * key.
 */
const bearerToken = (header: string | undefined) => /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1];

/** What every development key begins with (src/api/keys.ts), wherever it was pasted. */
const developmentKeyPrefix = 'bf_dev_';

/**
 * The name of the API key a request carries, or a 401 problem saying what to send. Where development keys are
 * refused (everywhere but development), a `bf_dev_` key opens nothing even when API_KEYS holds its hash: a
 * key minted for a local try never becomes production's by a pasted entry.
 */
export function authenticate(
  keys: readonly ApiKeyEntry[],
  request: FastifyRequest,
  developmentKeys: 'accepted' | 'refused',
): string {
  const token = bearerToken(request.headers.authorization);
  if (developmentKeys === 'refused' && token?.startsWith(developmentKeyPrefix))
    throw new ApiProblem(
      401,
      'unauthorized',
      'Unauthorized',
      'a development key (bf_dev_) opens nothing outside development: mint a key with ' +
        'BANKFLOW_ENV=production bankflow api-key create <name>',
      [{ field: 'Authorization', reason: 'is a development key' }],
    );
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

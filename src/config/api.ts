import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { developmentApiKeyEntry, parseApiKeyEntries, type ApiKeyEntry } from '../api/keys.js';
import { entries, port, type Parsed } from './fields.js';
import type { GeneralEnv } from './general.js';

/** `name:sha256` entries, comma-separated; refused by position, never quoting an entry. */
const apiKeyList = z
  .string()
  .optional()
  .transform((value, ctx) => {
    const parsed = parseApiKeyEntries(entries(value));
    if ('entries' in parsed) return parsed.entries;
    ctx.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  });

/**
 * The merchant HTTP API (`bankflow api`): where it listens, whose keys open it, how fast each key may call.
 */
export const apiVariables = {
  API_HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port(4050),
  /**
   * The keys that open the API, comma-separated `name:sha256` entries (`bankflow api-key create <name>`
   * prints one): several at once, so a key is rotated by adding the new one before removing the old. Hashes
   * only, so the configuration holds nothing that opens the API. Required when BANKFLOW_ENV=production; in
   * development, unset means the public development key alone.
   */
  // Marked secret although it holds hashes: a key pasted in place of its hash must not be echoed by an error.
  API_KEYS: secret(apiKeyList),
  /**
   * Requests one key may make per minute, on each API process; a key past it is answered 429 with
   * Retry-After.
   */
  API_RATE_LIMIT_PER_MINUTE: z.coerce
    .number()
    .int()
    .min(1, { message: 'must be a whole number of requests per minute, at least 1' })
    .default(600),
};

export type ApiEnv = Parsed<typeof apiVariables>;

export interface ApiConfig {
  host: string;
  port: number;
  /** The keys that open the API; none in production when API_KEYS is unset, which `bankflow api` refuses. */
  keys: ApiKeyEntry[];
  rateLimitPerMinute: number;
}

export function apiConfig(env: ApiEnv & Pick<GeneralEnv, 'BANKFLOW_ENV'>): ApiConfig {
  const developmentDefault = env.BANKFLOW_ENV === 'development' && env.API_KEYS.length === 0;
  return {
    host: env.API_HOST,
    port: env.API_PORT,
    keys: developmentDefault ? [developmentApiKeyEntry] : env.API_KEYS,
    rateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
  };
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * One API key as configuration holds it: a name (for logs, rate limits and rotation) and the key's SHA-256.
 */
export interface ApiKeyEntry {
  name: string;
  /** Hex SHA-256 of the key: the configuration never holds a key itself. */
  sha256: string;
}

/** A key's name: what logs and rate limits show, so nothing secret. */
export const apiKeyNamePattern = /^[\w.-]{1,64}$/;
const sha256Pattern = /^[0-9a-f]{64}$/;

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('hex');

/**
 * The development stack's key: public, so production refuses its hash in API_KEYS (src/production-checks.ts).
 * Its `bf_dev_` prefix says what it is wherever it is pasted.
 */
export const developmentApiKey = 'bf_dev_development-only-api-key-never-in-production';
export const developmentApiKeyEntry: ApiKeyEntry = {
  name: 'development',
  sha256: hashApiKey(developmentApiKey),
};

/** A new key: 32 random bytes, with a prefix that tells it from other credentials where it leaks. */
export function mintApiKey(name: string): { key: string; entry: ApiKeyEntry; configEntry: string } {
  if (!apiKeyNamePattern.test(name))
    throw new Error(`the key name must be 1 to 64 letters, digits, _ . or - (got ${JSON.stringify(name)})`);
  const key = `bf_live_${randomBytes(32).toString('base64url')}`;
  const entry = { name, sha256: hashApiKey(key) };
  return { key, entry, configEntry: `${entry.name}:${entry.sha256}` };
}

/**
 * Parses API_KEYS' entries (`name:sha256`), or answers the problem with the first bad one, by position: an
 * entry is no secret, but a key pasted by mistake in place of its hash would be.
 */
export function parseApiKeyEntries(entries: string[]): { entries: ApiKeyEntry[] } | { problem: string } {
  const parsed: ApiKeyEntry[] = [];
  for (const [index, entry] of entries.entries()) {
    const colon = entry.lastIndexOf(':');
    const name = entry.slice(0, Math.max(colon, 0));
    const sha256 = entry.slice(colon + 1).toLowerCase();
    if (colon < 0 || !apiKeyNamePattern.test(name) || !sha256Pattern.test(sha256))
      return {
        problem: `entry ${index + 1} must be name:sha256, a name of letters, digits, _ . or - and the key's hex SHA-256 (bankflow api-key create prints one)`,
      };
    if (parsed.some((other) => other.name === name))
      return { problem: `entry ${index + 1} repeats the name ${name}; each key needs a name of its own` };
    parsed.push({ name, sha256 });
  }
  return { entries: parsed };
}

/**
 * The name of the key a bearer token is, or undefined. Every entry is compared, in constant time, whichever
 * matches: the answer's timing says nothing of which entry holds it.
 */
export function apiKeyName(entries: readonly ApiKeyEntry[], token: string): string | undefined {
  const given = Buffer.from(hashApiKey(token), 'hex');
  let name: string | undefined;
  for (const entry of entries) {
    if (timingSafeEqual(given, Buffer.from(entry.sha256, 'hex'))) name ??= entry.name;
  }
  return name;
}

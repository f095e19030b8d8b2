import { createHash, timingSafeEqual } from 'node:crypto';

export interface CodecAuthSettings {
  /** `user:password` pairs for HTTP Basic (what a browser sends after the support person signs in). */
  users: string[];
  /** Bearer tokens for tools such as `temporal workflow show --codec-auth`. */
  tokens: string[];
  /**
   * Development only: with no users or tokens, a browser request from one of these origins is trusted (the local
   * Temporal UI), so the embedded stack shows decoded payloads without a sign-in.
   */
  trustedOrigins: string[];
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares against every candidate in constant time, whatever matches. */
function oneOf(given: string, candidates: string[]): boolean {
  const hashed = digest(given);
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(hashed, digest(candidate)) || matched;
  return matched;
}

export function codecAuthEnabled(settings: CodecAuthSettings): boolean {
  return settings.users.length > 0 || settings.tokens.length > 0;
}

export function authorizeCodecRequest(
  settings: CodecAuthSettings,
  headers: { authorization?: string; origin?: string },
): boolean {
  if (!codecAuthEnabled(settings))
    return headers.origin !== undefined && settings.trustedOrigins.includes(headers.origin);
  const [scheme, value] = (headers.authorization ?? '').split(/\s+/, 2);
  if (!value) return false;
  if (/^basic$/i.test(scheme ?? ''))
    return oneOf(Buffer.from(value, 'base64').toString('utf8'), settings.users);
  if (/^bearer$/i.test(scheme ?? '')) return oneOf(value, settings.tokens);
  return false;
}

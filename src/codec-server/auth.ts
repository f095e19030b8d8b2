import { createHash, timingSafeEqual } from 'node:crypto';

export interface CodecAuthSettings {
  /** `user:password` pairs for HTTP Basic (what a browser sends after the support person signs in). */
  users: string[];
  /**
   * Tokens, sent as `Authorization: Bearer` by tools such as `temporal workflow show --codec-auth`, or as the
   * endpoint's first path segment (`https://codec.example.com/<token>`) by a Temporal UI, whose codec endpoint
   * setting cannot add a header.
   */
  tokens: string[];
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares against every candidate in constant time, whatever matches. */
function oneOf(given: string, candidates: string[]): boolean {
  const hashed = digest(given);
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(hashed, digest(candidate)) || matched;
  return matched;
}

/** The token of `/<token>/encode` and `/<token>/decode`; the Origin header never counts, any page can send one. */
const pathToken = (url: string) => /^\/([^/?]+)\/(?:encode|decode)(?:\?|$)/.exec(url)?.[1];

/** With neither users nor tokens every request is refused: nothing decrypts for whoever can reach the port. */
export function authorizeCodecRequest(
  settings: CodecAuthSettings,
  request: { url: string; headers: { authorization?: string } },
): boolean {
  const inPath = pathToken(request.url);
  if (inPath !== undefined) return oneOf(decodeURIComponent(inPath), settings.tokens);
  const [scheme, value] = (request.headers.authorization ?? '').split(/\s+/, 2);
  if (!value) return false;
  if (/^basic$/i.test(scheme ?? ''))
    return oneOf(Buffer.from(value, 'base64').toString('utf8'), settings.users);
  if (/^bearer$/i.test(scheme ?? '')) return oneOf(value, settings.tokens);
  return false;
}

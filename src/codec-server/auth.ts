import { createHash, timingSafeEqual } from 'node:crypto';

export interface CodecAuthSettings {
  /** `user:password` pairs for HTTP Basic (what a browser sends after the support person signs in). */
  users: string[];
  /**
   * Tokens, sent as `Authorization: Bearer` by tools such as `temporal workflow show --codec-auth`, or as the
   * endpoint's first path segment (`https://codec.example.com/<token>`) by a Temporal UI, whose codec
   * endpoint setting cannot add a header.
   */
  tokens: string[];
  /**
   * Users and tokens that may also encode: a payload /encode returns is one workers take as bankflow's own
   * (the Temporal UI's signal dialog sends one), so minting them is a permission of its own, off unless
   * listed here.
   */
  encodeUsers?: string[];
  encodeTokens?: string[];
}

/** What a codec request asks for; whoever may encode may decode too. */
export type CodecOperation = 'encode' | 'decode';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares against every candidate in constant time, whatever matches. */
function oneOf(given: string, candidates: string[]): boolean {
  const hashed = digest(given);
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(hashed, digest(candidate)) || matched;
  return matched;
}

/**
 * The token of `/<token>/encode` and `/<token>/decode`; the Origin header never counts, any page can send
 * one.
 */
const pathToken = (url: string) => /^\/([^/?]+)\/(?:encode|decode)(?:\?|$)/.exec(url)?.[1];

/**
 * The operation a request's path names: `/encode` or `/<token>/encode` encodes, anything else asks no more
 * than decoding.
 */
export const requestedOperation = (url: string): CodecOperation =>
  /^(?:\/[^/?]+)?\/encode(?:\?|$)/.test(url) ? 'encode' : 'decode';

/** The credential a request carries: a token in its path, or its Authorization header. */
function credentialOf(request: {
  url: string;
  headers: { authorization?: string };
}): { kind: 'user' | 'token'; value: string } | undefined {
  const inPath = pathToken(request.url);
  if (inPath !== undefined) return { kind: 'token', value: decodeURIComponent(inPath) };
  const [scheme, value] = (request.headers.authorization ?? '').split(/\s+/, 2);
  if (!value) return undefined;
  if (/^basic$/i.test(scheme ?? ''))
    return { kind: 'user', value: Buffer.from(value, 'base64').toString('utf8') };
  if (/^bearer$/i.test(scheme ?? '')) return { kind: 'token', value };
  return undefined;
}

/**
 * The most a request's credential may do: `encode` (and decode), `decode` only, or nothing (undefined). With
 * no credentials configured every request gets nothing: nothing decrypts for whoever can reach the port.
 */
export function codecPermission(
  settings: CodecAuthSettings,
  request: { url: string; headers: { authorization?: string } },
): CodecOperation | undefined {
  const credential = credentialOf(request);
  if (!credential) return undefined;
  const [decoders, encoders] =
    credential.kind === 'user'
      ? [settings.users, settings.encodeUsers ?? []]
      : [settings.tokens, settings.encodeTokens ?? []];
  // Both lists are compared in full, so the answer's timing does not say which one holds the credential.
  const encodes = oneOf(credential.value, encoders);
  const decodes = oneOf(credential.value, decoders);
  if (encodes) return 'encode';
  return decodes ? 'decode' : undefined;
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { signWebhookBody } from '../bank/webhook-signature.js';

const signaturePattern = /^[0-9a-f]{64}$/i;

/**
 * The longest `Bankflow-Signature` header checked: bankflow sends `t=` and one v1 per secret (two during a
 * rotation), under 200 characters; this leaves room for `maxSignatures` and spaces, and nothing is parsed
 * beyond it.
 */
export const maxSignatureHeaderLength = 1_024;

/**
 * The most v1 entries a header may carry: bankflow sends at most two. A forged header with hundreds is
 * refused before any HMAC, so it costs the merchant no more than a genuine one.
 */
export const maxSignatures = 8;

/** What each v1 signs: the timestamp inside the MAC stops a recorded request's replay. */
const signedText = (timestamp: number, body: string) => `${timestamp}.${body}`;

/**
 * The `Bankflow-Signature` header for `body` sent at `timestamp` (unix seconds): one v1 per secret, the
 * current one first, so a merchant rotating its secret accepts both while it moves over.
 */
export function signatureHeader(body: string, secrets: string[], timestamp: number): string {
  const signed = signedText(timestamp, body);
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${signWebhookBody(signed, secret)}`)].join(',');
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** HMAC-SHA256 of `<timestamp>.<body>` under `secret`, the body hashed as it is, never copied. */
export type SignatureMac = (secret: string, timestamp: number, body: string | Buffer) => Buffer;

const hmacSha256: SignatureMac = (secret, timestamp, body) =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest();

/**
 * Whether `header` signs `body` under one of `secrets`, at most `toleranceSec` from `nowSec` (either way, for
 * clocks apart). Everything that needs no key is checked first: the header's length, its one timestamp and
 * its tolerance, the number of v1 entries. Only then is the body hashed, once per secret however many v1 the
 * header carries, and each v1 compared with each digest in constant time, whatever matches. `mac` is for
 * tests, which count the hashes.
 */
export function checkSignature(
  body: string | Buffer,
  header: string | undefined,
  secrets: string[],
  toleranceSec: number,
  nowSec: number,
  mac: SignatureMac = hmacSha256,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'the Bankflow-Signature header is missing' };
  if (header.length > maxSignatureHeaderLength)
    return {
      ok: false,
      reason: `the Bankflow-Signature header is longer than ${maxSignatureHeaderLength} characters`,
    };
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamps = parts.filter(([key]) => key === 't').map(([, value]) => Number(value));
  const timestamp = timestamps[0];
  if (timestamps.length !== 1 || timestamp === undefined || !Number.isSafeInteger(timestamp))
    return { ok: false, reason: 'the Bankflow-Signature header has no single t=<unix seconds>' };
  if (Math.abs(nowSec - timestamp) > toleranceSec)
    return { ok: false, reason: `the signature's timestamp is more than ${toleranceSec} s from now` };
  const entries = parts.filter(([key]) => key === 'v1');
  if (entries.length > maxSignatures)
    return {
      ok: false,
      reason: `the Bankflow-Signature header has ${entries.length} v1 entries, more than the ${maxSignatures} checked`,
    };
  const signatures = entries.flatMap(([, value]) =>
    value !== undefined && signaturePattern.test(value) ? [Buffer.from(value, 'hex')] : [],
  );
  if (signatures.length === 0)
    return { ok: false, reason: 'the Bankflow-Signature header has no v1 signature' };
  if (secrets.length === 0) return { ok: false, reason: 'no secret to verify with' };
  // The same HMAC-SHA256 as the bank's webhooks, over the timestamped text: one digest per secret, and every
  // v1 compared with every digest in constant time, whatever matches.
  const digests = secrets.map((secret) => mac(secret, timestamp, body));
  let matched = false;
  for (const signature of signatures)
    for (const digest of digests) matched = timingSafeEqual(digest, signature) || matched;
  if (!matched) return { ok: false, reason: 'no v1 signature matches the body under the given secrets' };
  return { ok: true };
}

import { createHmac, timingSafeEqual } from 'node:crypto';

const signaturePattern = /^[0-9a-f]{64}$/i;

/** HMAC-SHA256 over `<t>.<body>`, hex: one v1 of the `Bankflow-Signature` header. */
const sign = (timestamp: number, body: string, secret: string) =>
  createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

/**
 * The `Bankflow-Signature` header for `body` sent at `timestamp` (unix seconds): one v1 per secret, the current
 * one first, so a merchant rotating its secret accepts both while it moves over.
 */
export function signatureHeader(body: string, secrets: string[], timestamp: number): string {
  return [`t=${timestamp}`, ...secrets.map((secret) => `v1=${sign(timestamp, body, secret)}`)].join(',');
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/**
 * Whether `header` signs `body` under one of `secrets`, at most `toleranceSec` from `nowSec` (either way, for
 * clocks apart). Every v1 is compared with every secret in constant time, whatever matches.
 */
export function checkSignature(
  body: string,
  header: string | undefined,
  secrets: string[],
  toleranceSec: number,
  nowSec: number,
): SignatureCheck {
  if (!header) return { ok: false, reason: 'the Bankflow-Signature header is missing' };
  const parts = header.split(',').map((part) => part.trim().split('='));
  const timestamps = parts.filter(([key]) => key === 't').map(([, value]) => Number(value));
  const signatures = parts.filter(([key, value]) => key === 'v1' && signaturePattern.test(value ?? ''));
  const timestamp = timestamps[0];
  if (timestamps.length !== 1 || timestamp === undefined || !Number.isSafeInteger(timestamp))
    return { ok: false, reason: 'the Bankflow-Signature header has no single t=<unix seconds>' };
  if (signatures.length === 0)
    return { ok: false, reason: 'the Bankflow-Signature header has no v1 signature' };
  if (secrets.length === 0) return { ok: false, reason: 'no secret to verify with' };
  let matched = false;
  for (const secret of secrets) {
    const expected = Buffer.from(sign(timestamp, body, secret), 'hex');
    for (const [, value] of signatures)
      matched = timingSafeEqual(expected, Buffer.from(value ?? '', 'hex')) || matched;
  }
  if (!matched) return { ok: false, reason: 'no v1 signature matches the body under the given secrets' };
  if (Math.abs(nowSec - timestamp) > toleranceSec)
    return { ok: false, reason: `the signature's timestamp is more than ${toleranceSec} s from now` };
  return { ok: true };
}

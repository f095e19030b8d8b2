import { signWebhookBody, verifyWebhookSignature } from '../bank/webhook-signature.js';

const signaturePattern = /^[0-9a-f]{64}$/i;

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
  // The same HMAC-SHA256 hex as the bank's webhooks, over the timestamped text: every v1 is compared with
  // every secret in constant time, whatever matches.
  const signed = signedText(timestamp, body);
  let matched = false;
  for (const [, value] of signatures) matched = verifyWebhookSignature(signed, value, secrets) || matched;
  if (!matched) return { ok: false, reason: 'no v1 signature matches the body under the given secrets' };
  if (Math.abs(nowSec - timestamp) > toleranceSec)
    return { ok: false, reason: `the signature's timestamp is more than ${toleranceSec} s from now` };
  return { ok: true };
}

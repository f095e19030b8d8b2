import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const signatureBytes = 32;
const signaturePattern = /^[0-9a-f]{64}$/i;

/** HMAC-SHA256 of the exact bytes the bank sent, hex encoded: the `x-webhook-signature` header. */
export function signWebhookBody(rawBody: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('hex');
}

/**
 * True when the signature matches the body under any of the secrets (two during a rotation). Every secret is
 * compared, in constant time, whatever the outcome, so the timing tells nothing about which one matched.
 */
export function verifyWebhookSignature(
  rawBody: string | Buffer,
  signatureHex: string | undefined,
  secrets: string[],
): boolean {
  const wellFormed = signatureHex !== undefined && signaturePattern.test(signatureHex);
  const given = wellFormed ? Buffer.from(signatureHex, 'hex') : Buffer.alloc(signatureBytes);
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(rawBody).digest();
    matched = timingSafeEqual(expected, given) || matched;
  }
  return wellFormed && matched;
}

/**
 * True when the shared-secret header equals one of the secrets. Both sides are hashed first so values of any
 * length compare in constant time, and every secret is compared.
 */
export function verifySharedSecret(header: string | undefined, secrets: string[]): boolean {
  const given = sha256(header ?? '');
  let matched = false;
  for (const secret of secrets) {
    matched = timingSafeEqual(sha256(secret), given) || matched;
  }
  return header !== undefined && header !== '' && matched;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

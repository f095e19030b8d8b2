import { createHmac } from 'node:crypto';
import {
  signWebhookBody,
  verifySharedSecret,
  verifyWebhookSignature,
} from '../../src/bank/webhook-signature.js';

const body = '{"category":"initiation_document","type":"settled","data":{"amount":{"amount":1050}}}';
const current = 'current-secret';
const previous = 'previous-secret';

describe('webhook signatures', () => {
  it('signs with HMAC-SHA256 over the raw body, hex encoded', () => {
    const expected = createHmac('sha256', current).update(body).digest('hex');
    expect(signWebhookBody(body, current)).toBe(expected);
    expect(signWebhookBody(Buffer.from(body), current)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('verifies a signature made with the secret, whatever the hex case', () => {
    const signature = signWebhookBody(body, current);
    expect(verifyWebhookSignature(body, signature, [current])).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(body), signature.toUpperCase(), [current])).toBe(true);
  });

  it('accepts either of two secrets during a rotation, and neither outside them', () => {
    expect(verifyWebhookSignature(body, signWebhookBody(body, previous), [current, previous])).toBe(true);
    expect(verifyWebhookSignature(body, signWebhookBody(body, current), [current, previous])).toBe(true);
    expect(verifyWebhookSignature(body, signWebhookBody(body, 'retired'), [current, previous])).toBe(false);
  });

  it('refuses a signature over other bytes, even the same JSON reformatted', () => {
    const signature = signWebhookBody(body, current);
    expect(verifyWebhookSignature(`${body} `, signature, [current])).toBe(false);
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(body), null, 2), signature, [current])).toBe(
      false,
    );
  });

  it('refuses a missing, empty, truncated, non-hex or prefixed signature', () => {
    const signature = signWebhookBody(body, current);
    expect(verifyWebhookSignature(body, undefined, [current])).toBe(false);
    expect(verifyWebhookSignature(body, '', [current])).toBe(false);
    expect(verifyWebhookSignature(body, signature.slice(0, 62), [current])).toBe(false);
    expect(verifyWebhookSignature(body, `${signature}00`, [current])).toBe(false);
    expect(verifyWebhookSignature(body, `zz${signature.slice(2)}`, [current])).toBe(false);
    expect(verifyWebhookSignature(body, `sha256=${signature}`, [current])).toBe(false);
  });

  it('refuses an all-zero signature (what a malformed one is compared as)', () => {
    expect(verifyWebhookSignature(body, '0'.repeat(64), [current, previous])).toBe(false);
  });

  it('refuses everything when no secret is configured', () => {
    expect(verifyWebhookSignature(body, signWebhookBody(body, current), [])).toBe(false);
    expect(verifySharedSecret(current, [])).toBe(false);
  });

  it('checks the shared-secret header against every configured secret', () => {
    expect(verifySharedSecret(current, [current, previous])).toBe(true);
    expect(verifySharedSecret(previous, [current, previous])).toBe(true);
    expect(verifySharedSecret('wrong', [current, previous])).toBe(false);
    expect(verifySharedSecret(`${current}x`, [current])).toBe(false);
    expect(verifySharedSecret(current.slice(0, -1), [current])).toBe(false);
    expect(verifySharedSecret(undefined, [current])).toBe(false);
    expect(verifySharedSecret('', [current, ''])).toBe(false);
  });
});

import { createHmac, randomBytes } from 'node:crypto';
import {
  checkSignature,
  maxSignatureHeaderLength,
  maxSignatures,
  signatureHeader,
  type SignatureMac,
} from '../../src/notifications/signature.js';
import { NotificationSignatureError, verifyNotification } from '../../src/starter/index.js';

const secret = 'merchant-secret-of-at-least-32-characters';
const previous = 'the-secret-signed-with-before-rotation!!';
/** A body of 100 KB, as a forged request would carry to make each HMAC cost. */
const body = JSON.stringify({ id: 'payment:p-1:1', type: 'payment.created', padding: 'x'.repeat(100_000) });
const nowSec = Math.floor(Date.now() / 1000);

/** The real HMAC-SHA256, counting how many times the body is hashed. */
function countingMac(): { mac: SignatureMac; calls: () => number } {
  let calls = 0;
  return {
    mac: (key, timestamp, text) => {
      calls += 1;
      return createHmac('sha256', key).update(`${timestamp}.`).update(text).digest();
    },
    calls: () => calls,
  };
}

const forgedEntries = (count: number) =>
  Array.from({ length: count }, () => `v1=${randomBytes(32).toString('hex')}`);

describe('what checking a Bankflow-Signature header costs', () => {
  it('refuses a header of 230 v1 entries before hashing the body once', () => {
    const counting = countingMac();
    // 230 full entries do not fit the header's length either: both limits are checked, apart.
    const compact = [`t=${nowSec}`, ...Array.from({ length: 230 }, () => 'v1=')].join(',');
    expect(checkSignature(body, compact, [secret, previous], 300, nowSec, counting.mac)).toEqual({
      ok: false,
      reason: `the Bankflow-Signature header has 230 v1 entries, more than the ${maxSignatures} checked`,
    });
    const long = `t=${nowSec},${forgedEntries(230).join(',')}`;
    expect(checkSignature(body, long, [secret, previous], 300, nowSec, counting.mac)).toEqual({
      ok: false,
      reason: `the Bankflow-Signature header is longer than ${maxSignatureHeaderLength} characters`,
    });
    expect(counting.calls()).toBe(0);
    expect(() => verifyNotification(body, compact, [secret])).toThrow(NotificationSignatureError);
  });

  it('refuses a stale or future timestamp before hashing the body, even under a genuine signature', () => {
    const counting = countingMac();
    const stale = signatureHeader(body, [secret], nowSec - 301);
    expect(checkSignature(body, stale, [secret], 300, nowSec, counting.mac)).toEqual({
      ok: false,
      reason: "the signature's timestamp is more than 300 s from now",
    });
    const ahead = signatureHeader(body, [secret], nowSec + 301);
    expect(checkSignature(body, ahead, [secret], 300, nowSec, counting.mac)).toMatchObject({ ok: false });
    // A forged v1 on a stale timestamp is refused for its timestamp: no signature was looked at.
    const forged = [`t=${nowSec - 3_600}`, ...forgedEntries(2)].join(',');
    expect(checkSignature(body, forged, [secret], 300, nowSec, counting.mac)).toEqual({
      ok: false,
      reason: "the signature's timestamp is more than 300 s from now",
    });
    expect(counting.calls()).toBe(0);
  });

  it('hashes the body once per secret, however many v1 entries the header carries', () => {
    const rotating = signatureHeader(body, [secret, previous], nowSec);
    const counting = countingMac();
    expect(checkSignature(body, rotating, [secret, previous], 300, nowSec, counting.mac)).toEqual({
      ok: true,
    });
    expect(counting.calls()).toBe(2);

    // As many entries as are checked, the genuine one last: still one hash per secret.
    const genuine = signatureHeader(body, [secret], nowSec).split(',')[1] ?? '';
    const padded = [`t=${nowSec}`, ...forgedEntries(maxSignatures - 1), genuine].join(',');
    expect(padded.match(/v1=/g)).toHaveLength(maxSignatures);
    const once = countingMac();
    expect(checkSignature(body, padded, [previous, secret], 300, nowSec, once.mac)).toEqual({ ok: true });
    expect(once.calls()).toBe(2);
    expect(verifyNotification(Buffer.from(body), padded, [secret])).toMatchObject({ id: 'payment:p-1:1' });

    const forged = [`t=${nowSec}`, ...forgedEntries(maxSignatures)].join(',');
    const refused = countingMac();
    expect(checkSignature(body, forged, [secret], 300, nowSec, refused.mac)).toEqual({
      ok: false,
      reason: 'no v1 signature matches the body under the given secrets',
    });
    expect(refused.calls()).toBe(1);
  });

  it('hashes the raw bytes: a Buffer body and its text verify alike', () => {
    const header = signatureHeader(body, [secret], nowSec);
    expect(checkSignature(Buffer.from(body), header, [secret], 300, nowSec)).toEqual({ ok: true });
    expect(checkSignature(body, header, [secret], 300, nowSec)).toEqual({ ok: true });
  });
});

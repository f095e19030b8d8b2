import { signatureHeader } from '../../src/notifications/signature.js';
import { NotificationSignatureError, verifyNotification } from '../../src/starter/index.js';

const secret = 'merchant-secret-of-at-least-32-characters';
const previous = 'the-secret-signed-with-before-rotation!!';
const body = JSON.stringify({ id: 'payment:p-1:1', type: 'payment.created', sequence: 1 });
const nowSec = () => Math.floor(Date.now() / 1000);

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(NotificationSignatureError);
    return (error as Error).message;
  }
  throw new Error('expected the notification to be refused');
};

describe('verifyNotification', () => {
  it('answers the event of a body signed with the secret', () => {
    const header = signatureHeader(body, [secret], nowSec());
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifyNotification(body, header, [secret], 300)).toMatchObject({ id: 'payment:p-1:1' });
    expect(verifyNotification(Buffer.from(body), header, [secret])).toMatchObject({ sequence: 1 });
  });

  it('accepts either secret while one rotates: the header carries a v1 for each', () => {
    const header = signatureHeader(body, [secret, previous], nowSec());
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifyNotification(body, header, [previous], 300).type).toBe('payment.created');
    expect(verifyNotification(body, header, [secret], 300).type).toBe('payment.created');
  });

  it('refuses a wrong secret, a tampered body, a stale timestamp and a missing or malformed header', () => {
    const header = signatureHeader(body, [secret], nowSec());
    expect(refusal(() => verifyNotification(body, header, ['another-secret'], 300))).toMatch(
      /no v1 signature matches/,
    );
    expect(refusal(() => verifyNotification(body.replace('p-1', 'p-2'), header, [secret], 300))).toMatch(
      /no v1 signature matches/,
    );
    const stale = signatureHeader(body, [secret], nowSec() - 301);
    expect(refusal(() => verifyNotification(body, stale, [secret], 300))).toMatch(/more than 300 s from now/);
    const ahead = signatureHeader(body, [secret], nowSec() + 3_600);
    expect(refusal(() => verifyNotification(body, ahead, [secret], 300))).toMatch(/more than 300 s/);
    expect(refusal(() => verifyNotification(body, undefined, [secret], 300))).toMatch(/header is missing/);
    expect(refusal(() => verifyNotification(body, 'v1=abc', [secret], 300))).toMatch(/no single t=/);
    expect(refusal(() => verifyNotification(body, `t=${nowSec()}`, [secret], 300))).toMatch(
      /no v1 signature/,
    );
    expect(refusal(() => verifyNotification(body, header, [], 300))).toMatch(/no secret/);
  });
});

import { notificationTimings } from '../../src/contract/notifications.js';
import { answerText, isFinalAnswer, keptAnswerChars, retryDelayMs } from '../../src/notifications/answers.js';

describe("how a delivery reads the merchant endpoint's answer", () => {
  it('takes a 4xx as final for the event, except 408 and 429, and retries every other failure', () => {
    expect([400, 401, 403, 404, 409, 410, 422, 499].filter(isFinalAnswer)).toHaveLength(8);
    expect([408, 429, 500, 502, 503, 504, 302, 200].filter(isFinalAnswer)).toEqual([]);
  });

  it("waits for the endpoint's Retry-After, never sooner than the backoff nor longer than its longest interval", () => {
    const { initialIntervalMs, maximumIntervalMs } = notificationTimings.retry;
    expect(retryDelayMs(1, undefined)).toBeUndefined();
    expect(retryDelayMs(1, 120_000)).toBe(120_000);
    expect(retryDelayMs(1, 1_000)).toBe(initialIntervalMs);
    expect(retryDelayMs(3, 1_000)).toBe(initialIntervalMs * 4);
    expect(retryDelayMs(1, 24 * 3_600_000)).toBe(maximumIntervalMs);
    expect(retryDelayMs(1, 24 * 3_600_000, 10)).toBe(maximumIntervalMs / 10);
  });

  it('keeps the status and the start of the body in printable characters', () => {
    expect(answerText(404, Buffer.from('{"error":\n"no such order"}'))).toBe(
      'HTTP 404: {"error": "no such order"}',
    );
    expect(answerText(500, Buffer.alloc(0))).toBe('HTTP 500');
    expect(answerText(500, Buffer.from('y'.repeat(10_000)))).toBe(`HTTP 500: ${'y'.repeat(keptAnswerChars)}`);
  });
});

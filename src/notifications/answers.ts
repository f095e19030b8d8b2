import { notificationTimings } from '../contract/notifications.js';

/**
 * The bytes of an endpoint's answer read at most: enough for the log's excerpt. The rest of the body is never
 * read, so an endpoint answering with megabytes costs the worker no more than this (and one network read).
 */
export const answerBytesRead = 4_096;

/** The characters of an answer's body the delivery log keeps. */
export const keptAnswerChars = 200;

/**
 * Whether the endpoint's answer is final for the event: a 4xx says the request itself is refused and will be
 * again, except 408 (the endpoint timed out) and 429 (too many requests), which say later.
 */
export const isFinalAnswer = (status: number): boolean =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

/**
 * The wait before the next attempt when the endpoint said when (`Retry-After`, as ms): no sooner than it
 * asked nor than the backoff of `attempt` would wait, and no later than the retry policy's longest interval,
 * which the test speedup divides like the others. Undefined without a Retry-After: the retry policy decides.
 */
export function retryDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  speedup = 1,
): number | undefined {
  if (retryAfterMs === undefined) return undefined;
  const { initialIntervalMs, backoffCoefficient, maximumIntervalMs } = notificationTimings.retry;
  const longest = maximumIntervalMs / speedup;
  const backoff = Math.min((initialIntervalMs * backoffCoefficient ** (attempt - 1)) / speedup, longest);
  return Math.min(Math.max(retryAfterMs, backoff), longest);
}

/**
 * The first `answerBytesRead` bytes of `response`'s body; the body is then cancelled, which closes the
 * connection instead of reading the rest.
 */
export async function answerPrefix(response: Response): Promise<Buffer> {
  const reader = response.body?.getReader();
  if (!reader) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let read = 0;
  try {
    while (read < answerBytesRead) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      read += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, answerBytesRead);
}

/** The answer as the delivery log shows it: the status, and the start of the body in printable characters. */
export function answerText(status: number, body: Buffer): string {
  const text = body
    .toString('utf8')
    .replace(/[^\x20-\x7e]+/g, ' ')
    .trim();
  return `HTTP ${status}${text ? `: ${text.slice(0, keptAnswerChars)}` : ''}`;
}

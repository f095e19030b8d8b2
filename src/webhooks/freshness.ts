/**
 * The freshness window when WEBHOOK_MAX_AGE_SECONDS is unset: 5 minutes, well above the bank's retry span.
 */
export const defaultWebhookMaxAgeSeconds = 300;

/**
 * Replay protection: an envelope whose `timestamp` is older than `maxAgeMs` (or that far in the future, for
 * clock skew) is refused. The window must cover the bank's own retries of one event, which resend the same
 * envelope and timestamp. `undefined` turns the check off (development only: production refuses
 * WEBHOOK_MAX_AGE_SECONDS=0).
 */
export function staleness(
  timestamp: string,
  maxAgeMs: number | undefined,
  now = Date.now(),
): string | undefined {
  if (maxAgeMs === undefined) return undefined;
  const age = now - Date.parse(timestamp);
  if (age > maxAgeMs)
    return `the event's timestamp ${timestamp} is older than ${maxAgeMs / 1000} s (WEBHOOK_MAX_AGE_SECONDS)`;
  if (-age > maxAgeMs)
    return `the event's timestamp ${timestamp} is more than ${maxAgeMs / 1000} s in the future`;
  return undefined;
}

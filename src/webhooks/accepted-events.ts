import type { DeliveryOutcome } from './deliver.js';

/** How long a key is remembered when no freshness window bounds replays (development with the check off). */
const fallbackWindowMs = 300_000;
/** Bounds the memory under a flood of distinct events; the oldest keys go first. */
const maxRemembered = 100_000;

/**
 * The event keys this receiver accepted, each until its envelope is too old to pass the freshness check, so a
 * replay inside the window is answered with the first answer and reaches Temporal no more. A key is
 * remembered only after Temporal took the event, so an event refused with 503 is delivered when the bank
 * retries.
 */
export class AcceptedEvents {
  private readonly windowMs: number;
  private readonly byKey = new Map<string, { outcome: DeliveryOutcome; expiresAt: number }>();

  constructor(maxAgeMs: number | undefined) {
    this.windowMs = maxAgeMs ?? fallbackWindowMs;
  }

  find(key: string, now = Date.now()): DeliveryOutcome | undefined {
    const entry = this.byKey.get(key);
    if (entry && entry.expiresAt > now) return entry.outcome;
    if (entry) this.byKey.delete(key);
    return undefined;
  }

  remember(key: string, timestamp: string, outcome: DeliveryOutcome, now = Date.now()): void {
    this.forgetExpired(now);
    this.byKey.delete(key);
    this.byKey.set(key, { outcome, expiresAt: Math.max(Date.parse(timestamp), now) + this.windowMs });
    if (this.byKey.size > maxRemembered) this.byKey.delete(this.byKey.keys().next().value ?? key);
  }

  /** Keys arrive roughly in expiry order, so the sweep stops at the first one still live. */
  private forgetExpired(now: number): void {
    for (const [key, entry] of this.byKey) {
      if (entry.expiresAt > now) break;
      this.byKey.delete(key);
    }
  }
}

import type { PollingSettings } from '../shared/polling.js';

const minutes = (n: number) => n * 60_000;

/**
 * How long each step of a payment may take and how the workflow follows the bank meanwhile. Fixed by the bank's
 * windows, not by callers: tests cover them with skipped time.
 */
export const paymentTimings = {
  /** An enrollment the bank's reads still show pending is read again after this, doubling... */
  enrollmentRecheckMs: 1_000,
  /** ...until the wait would pass this: a lag of the bank's reads, not a journey still under way. */
  enrollmentRecheckForMs: 8_000,
  /** The bank's consent window, from creation. */
  consentWindowMs: minutes(5),
  /** How long after the consent window a payment the bank still shows awaiting consent is followed. */
  afterConsentWindowMs: minutes(60),
  /** How long a payment the bank is processing is followed. */
  processingMs: 7 * 24 * minutes(60),
  /** The first part of processing, polled as often as the consent step; after it, `sparsePolling`. */
  frequentPollingMs: minutes(60),
  sparsePolling: { firstPollAfterMs: minutes(2), maxPollIntervalMs: minutes(30) } satisfies PollingSettings,
  /** How long a settlement waits for its Pix cash-in event before the bank's GET stands alone. */
  cashInWaitMs: minutes(1),
  /** The first part of that wait, before the unmatched events are searched. */
  cashInGraceMs: 2_000,
  /** At most this many events in one run's history; a poll cycle adds about a dozen. */
  historyBound: 1_000,
  /** Room left below the bound for the cycle under way and the run's ending. */
  historyHeadroom: 100,
};

export type PaymentTimings = typeof paymentTimings;

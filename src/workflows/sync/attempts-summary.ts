import {
  addUnknown,
  unknownRecurrencesKept,
  type CountedDelivery,
  type AttemptsSliceResult,
  type AttemptsSyncSummary,
} from '../../contract/attempts-sync.js';

export function emptySummary(from: string, to: string): AttemptsSyncSummary {
  return {
    from,
    to,
    pages: 0,
    attempts: 0,
    byStatus: {},
    recurrencesUpdated: 0,
    signals: 0,
    unknownRecurrences: [],
    unknownAttempts: 0,
    runs: 0,
  };
}

/** Adds a slice's summary to the whole window's. */
export function addSlice(summary: AttemptsSyncSummary, { summary: sliced }: AttemptsSliceResult): void {
  addCounted(summary, {
    pages: sliced.pages,
    attempts: sliced.attempts,
    byStatus: sliced.byStatus,
    signals: sliced.signals,
    updated: sliced.recurrencesUpdated,
    unknownAttempts: sliced.unknownAttempts,
    unknownSample: sliced.unknownRecurrences,
  });
  summary.runs += sliced.runs;
}

/**
 * Adds a counted delivery to the running summary. `recurrencesUpdated` counts a recurrence once per delivery
 * until the sync's last step counts them once each from the deliveries' records (`summarizeDeliveries`).
 */
export function addCounted(summary: AttemptsSyncSummary, delivery: CountedDelivery): void {
  summary.pages += delivery.pages;
  summary.attempts += delivery.attempts;
  for (const [status, count] of Object.entries(delivery.byStatus)) {
    summary.byStatus[status] = (summary.byStatus[status] ?? 0) + count;
  }
  summary.signals += delivery.signals;
  summary.recurrencesUpdated += delivery.updated;
  summary.unknownAttempts += delivery.unknownAttempts;
  for (const unknown of delivery.unknownSample) {
    addUnknown(summary.unknownRecurrences, unknown, unknownRecurrencesKept);
  }
}

import {
  addUnknown,
  unknownRecurrencesKept,
  type CountedDelivery,
  type AttemptsDelivery,
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

/** Adds a page activity's result to the running summary; `updated` collects the recurrences signalled so far. */
export function addPage(summary: AttemptsSyncSummary, page: AttemptsDelivery, updated: Set<string>): void {
  summary.pages += page.pages;
  summary.attempts += page.attempts;
  for (const [status, count] of Object.entries(page.byStatus)) {
    summary.byStatus[status] = (summary.byStatus[status] ?? 0) + count;
  }
  summary.signals += page.signals;
  for (const externalId of page.updated) updated.add(externalId);
  summary.recurrencesUpdated = updated.size;
  for (const unknown of page.unknown) {
    summary.unknownAttempts += unknown.attempts;
    addUnknown(summary.unknownRecurrences, unknown);
  }
}

/**
 * Adds a slice's summary to the whole window's; `updated` collects the recurrences signalled so far by slices
 * started before `attemptsSyncBoundedPatch`, whose results list them.
 */
export function addSlice(
  summary: AttemptsSyncSummary,
  slice: AttemptsSliceResult,
  updated: Set<string>,
): void {
  const { summary: sliced } = slice;
  if (slice.updatedRecurrences) {
    addPage(
      summary,
      {
        pages: sliced.pages,
        attempts: sliced.attempts,
        byStatus: sliced.byStatus,
        signals: sliced.signals,
        updated: slice.updatedRecurrences,
        unknown: sliced.unknownRecurrences,
      },
      updated,
    );
  } else {
    addCounted(summary, {
      pages: sliced.pages,
      attempts: sliced.attempts,
      byStatus: sliced.byStatus,
      signals: sliced.signals,
      updated: sliced.recurrencesUpdated,
      unknownAttempts: sliced.unknownAttempts,
      unknownSample: sliced.unknownRecurrences,
    });
  }
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

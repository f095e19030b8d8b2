import {
  unknownAttemptIdsKept,
  type AttemptsDelivery,
  type AttemptsSliceResult,
  type AttemptsSyncSummary,
  type UnknownRecurrence,
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

function addUnknown(known: UnknownRecurrence[], found: UnknownRecurrence): void {
  const entry = known.find((item) => item.externalId === found.externalId);
  if (!entry) {
    known.push({ ...found, attemptIds: found.attemptIds.slice(0, unknownAttemptIdsKept) });
    return;
  }
  entry.attempts += found.attempts;
  entry.workflow = found.workflow;
  entry.recurrenceId ??= found.recurrenceId;
  const room = unknownAttemptIdsKept - entry.attemptIds.length;
  if (room > 0) entry.attemptIds.push(...found.attemptIds.slice(0, room));
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

/** Adds a slice's summary to the whole window's; `updated` collects the recurrences signalled so far. */
export function addSlice(
  summary: AttemptsSyncSummary,
  slice: AttemptsSliceResult,
  updated: Set<string>,
): void {
  addPage(
    summary,
    {
      pages: slice.summary.pages,
      attempts: slice.summary.attempts,
      byStatus: slice.summary.byStatus,
      signals: slice.summary.signals,
      updated: slice.updatedRecurrences,
      unknown: slice.summary.unknownRecurrences,
    },
    updated,
  );
  summary.runs += slice.summary.runs;
}

import {
  addUnknown,
  unknownAttemptIdsKept,
  unknownRecurrencesKept,
  type AttemptsDelivery,
  type AttemptsSyncRecurrences,
  type CountedDelivery,
  type DeliveryRecord,
  type UnknownRecurrence,
} from '../contract/attempts-sync.js';
import type { ReportSink } from '../reports/sink/index.js';

/** One line of a delivery's record: a recurrence it signalled, or one it found with no running workflow. */
type DeliveryLine = { updated: string } | { unknown: UnknownRecurrence };

const deliveriesOf = (prefix: string) => `${prefix}/deliveries/`;

export const emptyCounted = (): CountedDelivery => ({
  pages: 0,
  attempts: 0,
  signals: 0,
  byStatus: {},
  updated: 0,
  unknownAttempts: 0,
  unknownSample: [],
});

/** `total` plus `delivery`, the unknown sample merged by recurrence and kept to `unknownRecurrencesKept`. */
export function addCounted(total: CountedDelivery, delivery: CountedDelivery): CountedDelivery {
  const byStatus = { ...total.byStatus };
  for (const [status, count] of Object.entries(delivery.byStatus))
    byStatus[status] = (byStatus[status] ?? 0) + count;
  const unknownSample = total.unknownSample.map((entry) => ({ ...entry, attemptIds: [...entry.attemptIds] }));
  for (const unknown of delivery.unknownSample) addUnknown(unknownSample, unknown, unknownRecurrencesKept);
  return {
    pages: total.pages + delivery.pages,
    attempts: total.attempts + delivery.attempts,
    signals: total.signals + delivery.signals,
    byStatus,
    updated: total.updated + delivery.updated,
    unknownAttempts: total.unknownAttempts + delivery.unknownAttempts,
    unknownSample,
  };
}

/**
 * Leaves a delivery's recurrences in the sink under its key (a retried delivery rewrites its own record) and
 * answers only counts and a capped sample, so what goes back into history is bounded however many recurrences
 * the delivery's pages held.
 */
export async function recordDelivery(
  sink: ReportSink,
  record: DeliveryRecord,
  delivery: AttemptsDelivery,
): Promise<CountedDelivery> {
  const lines: DeliveryLine[] = [
    ...delivery.updated.map((updated) => ({ updated })),
    ...delivery.unknown.map((unknown) => ({ unknown })),
  ];
  if (lines.length > 0) {
    await sink.put(
      `${deliveriesOf(record.prefix)}${record.key}`,
      lines.map((line) => `${JSON.stringify(line)}\n`).join(''),
    );
  }
  return {
    pages: delivery.pages,
    attempts: delivery.attempts,
    signals: delivery.signals,
    byStatus: delivery.byStatus,
    updated: delivery.updated.length,
    unknownAttempts: delivery.unknown.reduce((sum, unknown) => sum + unknown.attempts, 0),
    unknownSample: delivery.unknown.slice(0, unknownRecurrencesKept),
  };
}

/** The sink key of a sync's full list of unknown recurrences. */
export const unknownRecurrencesKey = (prefix: string) => `${prefix}/unknown-recurrences.jsonl`;

/** The sink key of a sync's counted recurrences: a retry after the deliveries are removed answers from it. */
const summaryKey = (prefix: string) => `${prefix}/recurrences-summary.json`;

/**
 * Counts the recurrences of every delivery of a sync once each, and writes the unknown ones, merged by
 * recurrence, to one list for support (one JSON object a line). Memory grows with the window's recurrences,
 * in this activity only, never in a payload. The deliveries are removed once counted, so a sync leaves its
 * list and its counts in the sink, not a file per delivery.
 */
export async function summarizeDeliveries(
  sink: ReportSink,
  prefix: string,
): Promise<AttemptsSyncRecurrences> {
  // A sync is summarised once, after its last delivery: a summary already written is a retry's answer, also
  // when the removal of the deliveries had only partly run.
  const counted = await sink.get(summaryKey(prefix));
  if (counted !== undefined) return JSON.parse(counted) as AttemptsSyncRecurrences;
  const updated = new Set<string>();
  const unknown = new Map<string, UnknownRecurrence>();
  for (const key of await sink.list(deliveriesOf(prefix))) {
    const text = (await sink.get(key)) ?? '';
    for (const line of text.split('\n')) {
      if (!line) continue;
      const parsed = JSON.parse(line) as DeliveryLine;
      if ('updated' in parsed) updated.add(parsed.updated);
      else mergeUnknown(unknown, parsed.unknown);
    }
  }
  const listed = [...unknown.values()];
  const key = unknownRecurrencesKey(prefix);
  if (listed.length > 0) await sink.put(key, listed.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
  const summary: AttemptsSyncRecurrences = {
    recurrencesUpdated: updated.size,
    unknownRecurrenceCount: listed.length,
    unknownRecurrences: listed.slice(0, unknownRecurrencesKept),
    ...(listed.length > 0 ? { unknownRecurrencesFile: sink.locate(key) } : {}),
  };
  await sink.put(summaryKey(prefix), JSON.stringify(summary));
  await sink.deletePrefix(deliveriesOf(prefix));
  return summary;
}

function mergeUnknown(known: Map<string, UnknownRecurrence>, found: UnknownRecurrence): void {
  const entry = known.get(found.externalId);
  if (!entry) {
    known.set(found.externalId, { ...found, attemptIds: found.attemptIds.slice(0, unknownAttemptIdsKept) });
    return;
  }
  addUnknown([entry], found);
}

import type { CollectionAttemptListQuery } from '../bank/schemas/collection-attempt.js';
import type { JobWindowInput, ScheduleCoverage } from './jobs.js';
import type { RecurrenceAttempt } from './recurrence.js';

/** The attempts sync's workflow type; its id is `workflowIds.attemptsSync(from, to)`, or its schedule's. */
export const attemptsSyncWorkflowType = 'syncRecurrenceAttempts';
export type AttemptsSyncWorkflow = (input?: AttemptsSyncInput) => Promise<AttemptsSyncSummary>;

/**
 * The window [from, to) of attempts to sync, by their `timestamp`. A run a Schedule starts has no input: its
 * window is the time since its schedule's last completed window (see `JobWindowInput`).
 */
export interface AttemptsSyncInput extends JobWindowInput {
  /** Records per page asked of the bank (`limit`, at most 100); the bank's default of 50 when absent. */
  pageSize?: number;
  /**
   * Pages per workflow run before continue-as-new (default 1,000; 20 for a slice of a rate-limited sync,
   * whose run keeps its pages' records in its history); bounds the history whatever the volume.
   */
  pagesPerRun?: number;
  /** Set by continue-as-new. */
  resume?: AttemptsSyncCarry;
}

/** What continue-as-new carries: where the listing stands and what it found so far. */
export interface AttemptsSyncCarry {
  /** The bank's `after` cursor of the next page to fetch. */
  cursor: string;
  summary: AttemptsSyncSummary;
}

/** Unknown recurrences a summary lists (`unknownRecurrences`); the report sink holds them all. */
export const unknownRecurrencesKept = 20;

/** Attempts whose recurrence has no running workflow: counted and listed, never dropped silently. */
export interface UnknownRecurrence {
  externalId: string;
  recurrenceId: string | null;
  /** `missing`: no workflow `recurrence:<external_id>` exists; `closed`: it has ended. */
  workflow: 'missing' | 'closed';
  attempts: number;
  /** The first attempt ids found, up to `unknownAttemptIdsKept`; `attempts` counts them all. */
  attemptIds: string[];
}

export const unknownAttemptIdsKept = 100;

/**
 * Merges `found` into `known` by recurrence; a new recurrence is listed only while `known` has fewer than
 * `kept`.
 */
export function addUnknown(
  known: UnknownRecurrence[],
  found: UnknownRecurrence,
  kept = Number.POSITIVE_INFINITY,
): void {
  const entry = known.find((item) => item.externalId === found.externalId);
  if (!entry) {
    if (known.length >= kept) return;
    known.push({ ...found, attemptIds: found.attemptIds.slice(0, unknownAttemptIdsKept) });
    return;
  }
  entry.attempts += found.attempts;
  entry.workflow = found.workflow;
  entry.recurrenceId ??= found.recurrenceId;
  const room = unknownAttemptIdsKept - entry.attemptIds.length;
  if (room > 0) entry.attemptIds.push(...found.attemptIds.slice(0, room));
}

export interface AttemptsSyncSummary extends ScheduleCoverage {
  from: string;
  to: string;
  pages: number;
  attempts: number;
  byStatus: Record<string, number>;
  /** Distinct recurrence workflows that were signalled their attempts. */
  recurrencesUpdated: number;
  /** Signals sent: one per recurrence per batch of pages (more for a recurrence with very many attempts). */
  signals: number;
  /**
   * The first `unknownRecurrencesKept` recurrences with no running workflow; `unknownRecurrenceCount` counts
   * them.
   */
  unknownRecurrences: UnknownRecurrence[];
  /** Distinct recurrences with no running workflow, counted at the sync's last step (absent until then). */
  unknownRecurrenceCount?: number;
  /**
   * Where the full list of unknown recurrences is, one JSON object a line (report sink; absent when none).
   */
  unknownRecurrencesFile?: string;
  unknownAttempts: number;
  /** Workflow runs the sync took (continue-as-new starts the next). */
  runs: number;
}

/** What a delivery of pages signalled, before its recurrences go to the report sink (`CountedDelivery`). */
export interface AttemptsDelivery {
  /** Pages the delivery took. */
  pages: number;
  attempts: number;
  /** Signals sent: one per recurrence per batch, more for a recurrence with very many attempts. */
  signals: number;
  byStatus: Record<string, number>;
  /** External ids of the recurrences signalled their attempts. */
  updated: string[];
  unknown: UnknownRecurrence[];
}

/**
 * A delivery as it goes back into history: its recurrences are in the report sink, its result counts them.
 */
export interface CountedDelivery {
  pages: number;
  attempts: number;
  signals: number;
  byStatus: Record<string, number>;
  /** Recurrences this delivery signalled (one counted in several deliveries is counted in each). */
  updated: number;
  unknownAttempts: number;
  /** At most `unknownRecurrencesKept` of this delivery's unknown recurrences. */
  unknownSample: UnknownRecurrence[];
}

/**
 * Where a delivery leaves its recurrences: `<prefix>/deliveries/<key>`, one per delivery, rewritten by its
 * retry.
 */
export interface DeliveryRecord {
  prefix: string;
  key: string;
}

/** A delivery's key: its first page's number, padded so the sink lists the deliveries in page order. */
export const deliveryKey = (firstPage: number, owner = 'window') =>
  `${owner}-pages-${String(firstPage).padStart(9, '0')}.jsonl`;

/**
 * Where a sync's deliveries and its list of unknown recurrences go in the report sink: one prefix a window.
 */
export const attemptsSyncRecordsPrefix = (firstRunId: string, window: { from: string; to: string }) =>
  `attempts-sync/${firstRunId}/${window.from}_${window.to}`;

/**
 * Pages of a serial sync, fetched by one queued activity that delivers them a few pages at a time and
 * heartbeats the cursor after each delivery; a retry resumes from there.
 */
export interface AttemptsPagesDeliveryRequest extends AttemptsPagesRequest {
  /** The sink prefix of the sync's deliveries. */
  prefix: string;
  /**
   * The window's pages fetched before this request's first one: each delivery's key is its first page's
   * number.
   */
  firstPage: number;
}

export interface AttemptsPagesDeliveryResult extends CountedDelivery {
  next: string | null;
}

/** The recurrences of every delivery of a sync, counted once each, and where the unknown ones are listed. */
export interface AttemptsSyncRecurrences {
  recurrencesUpdated: number;
  unknownRecurrenceCount: number;
  unknownRecurrences: UnknownRecurrence[];
  unknownRecurrencesFile?: string;
}

/** An attempt as a slice's page hands it back: what its recurrence is signalled, and whose it is. */
export interface SyncedAttempt {
  externalId: string;
  recurrenceId: string | null;
  attempt: RecurrenceAttempt;
}

/**
 * One page of a slice, fetched by a queued activity: the records, since the slice signals them in batches.
 */
export interface AttemptsSlicePage {
  attempts: SyncedAttempt[];
  next: string | null;
}

/** One time slice [from, to) of a sync's window, paged by a child workflow of its own. */
export interface AttemptsSliceInput {
  from: string;
  to: string;
  pageSize?: number;
  pagesPerRun?: number;
  resume?: AttemptsSyncCarry;
  /** The sync's sink prefix its deliveries go to. */
  deliveries: string;
}

export interface AttemptsSliceResult {
  summary: AttemptsSyncSummary;
}

/** A batch of consecutive pages: from the query's cursor, at most `maxPages`. */
export interface AttemptsPagesRequest {
  query: AttemptsPageQuery;
  maxPages: number;
}

export type AttemptsPageQuery = Pick<
  CollectionAttemptListQuery,
  'from_datetime' | 'to_datetime' | 'limit' | 'after'
>;

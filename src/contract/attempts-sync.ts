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
   * Pages per workflow run before continue-as-new (default 1,000; 20 for a slice of a rate-limited sync, whose
   * run keeps its pages' records in its history); bounds the history whatever the volume.
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
  /** External ids of the recurrences signalled so far, to count each once. */
  updatedRecurrences: string[];
}

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
  unknownRecurrences: UnknownRecurrence[];
  unknownAttempts: number;
  /** Workflow runs the sync took (continue-as-new starts the next). */
  runs: number;
}

/** Pages of the attempts list, as the page activity reports them back: counts, never the records. */
export interface AttemptsPageResult {
  /** Pages the call took. */
  pages: number;
  attempts: number;
  /** Signals sent: one per recurrence per batch, more for a recurrence with very many attempts. */
  signals: number;
  byStatus: Record<string, number>;
  /** External ids of the recurrences signalled their attempts. */
  updated: string[];
  unknown: UnknownRecurrence[];
  /** The cursor of the next page, null on the last one. */
  next: string | null;
}

/** The pages of a result; the sum of its delivered batches when the sync ran in slices. */
export type AttemptsDelivery = Omit<AttemptsPageResult, 'next'>;

/** An attempt as a slice's page hands it back: what its recurrence is signalled, and whose it is. */
export interface SyncedAttempt {
  externalId: string;
  recurrenceId: string | null;
  attempt: RecurrenceAttempt;
}

/** One page of a slice, fetched by a queued activity: the records, since the slice signals them in batches. */
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
}

export interface AttemptsSliceResult {
  summary: AttemptsSyncSummary;
  updatedRecurrences: string[];
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

import type { CollectionAttemptListQuery } from '../../bank/schemas/collection-attempt.js';
import type { JobWindowInput } from '../shared/schedule-window.js';

/**
 * The window [from, to) of attempts to sync, by their `timestamp`. A run a Schedule starts has no input: its
 * window is the time since its schedule's last completed window (see shared/schedule-window.ts).
 */
export interface AttemptsSyncInput extends JobWindowInput {
  /** Records per page asked of the bank (`limit`, at most 100); the bank's default of 50 when absent. */
  pageSize?: number;
  /** Pages per workflow run before continue-as-new; bounds the history whatever the volume. */
  pagesPerRun?: number;
  /** Set by continue-as-new. */
  resume?: AttemptsSyncCarry;
}

export const defaultPagesPerRun = 20;

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

export interface AttemptsSyncSummary {
  from: string;
  to: string;
  pages: number;
  attempts: number;
  byStatus: Record<string, number>;
  /** Distinct recurrence workflows that were signalled their attempts. */
  recurrencesUpdated: number;
  /** Signals sent: one per recurrence per page. */
  signals: number;
  unknownRecurrences: UnknownRecurrence[];
  unknownAttempts: number;
  /** Workflow runs the sync took (continue-as-new starts the next). */
  runs: number;
}

/** One page of the attempts list, as the page activity reports it back: counts, never the records. */
export interface AttemptsPageResult {
  attempts: number;
  byStatus: Record<string, number>;
  /** External ids of the recurrences signalled their attempts. */
  updated: string[];
  unknown: UnknownRecurrence[];
  /** The cursor of the next page, null on the last one. */
  next: string | null;
}

export type AttemptsPageQuery = Pick<
  CollectionAttemptListQuery,
  'from_datetime' | 'to_datetime' | 'limit' | 'after'
>;

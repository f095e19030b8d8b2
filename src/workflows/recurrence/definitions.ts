import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { CollectionAttempt } from '../../bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../../bank/schemas/recurrence.js';
import type { StartTerms } from '../shared/start-terms.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import type { PendingConfirmation } from './confirmations.js';
import {
  noArchivedAttempts,
  type ArchivedAttempts,
  type AttemptSource,
  type RecurrenceAttempt,
} from './attempt-table.js';

export type { ArchivedAttempts, AttemptSource, RecurrenceAttempt } from './attempt-table.js';
export type { PendingConfirmation } from './confirmations.js';

/**
 * Recurrence statuses after which the bank collects nothing more: the workflow ends when the bank reports one.
 * `approved` (the spec's example) and `created` keep it running.
 */
export const endedRecurrenceStatuses = ['rejected', 'cancelled', 'expired'] as const;
export type RecurrenceOutcome = (typeof endedRecurrenceStatuses)[number];

export interface RecurrenceSettings {
  /** Continue-as-new once the run's history reaches this many events (or when Temporal suggests it). */
  maxHistoryEvents?: number;
  /** Attempts kept one by one; older final ones are folded into counts (see attempt-table.ts). */
  maxAttemptsKept?: number;
}

export const defaultRecurrenceSettings: Required<RecurrenceSettings> = {
  maxHistoryEvents: 2_000,
  maxAttemptsKept: 500,
};

/** What continue-as-new carries into the next run. */
export interface RecurrenceCarry {
  recurrence: Recurrence;
  attempts: RecurrenceAttempt[];
  archived: ArchivedAttempts;
  updates: RecurrenceUpdateCounts;
  runs: number;
  /** Webhook-announced attempts the bank's GET has yet to confirm; absent when there are none. */
  confirming?: PendingConfirmation[];
}

export interface RecurrenceInput {
  /** The full generate request; `external_id` names the workflow (`recurrence:<external_id>`). */
  request: GenerateRecurrenceRequest;
  settings?: RecurrenceSettings;
  resume?: RecurrenceCarry;
}

export type RecurrencePhase = 'generating' | 'active' | 'refused' | RecurrenceOutcome;

export interface RecurrenceUpdateCounts {
  /** Attempt updates that changed the table (a new attempt, or a newer status of a known one). */
  applied: number;
  /** The same attempt, status and timestamp again, e.g. from the sync after a webhook. */
  duplicates: number;
  /** An older status than the one known, e.g. a late webhook. */
  stale: number;
  /**
   * Webhooks whose data is not an attempt of this recurrence, by their own word or by the bank's GET of the attempt
   * they name, and those the GET never confirmed before the deadline.
   */
  ignored: number;
  fromSync: number;
  /** Webhooks about this recurrence's attempts; each is taken only as far as the bank's GET confirms it. */
  fromWebhooks: number;
}

export interface RecurrenceState {
  phase: RecurrencePhase;
  externalId: string;
  recurrenceId?: string;
  /** The bank's status of the recurrence, once generated. */
  status?: string;
  recurrence?: Recurrence;
  /** Newest first. */
  attempts: RecurrenceAttempt[];
  /** Every attempt known, including the archived ones, by its current status. */
  attemptsByStatus: Record<string, number>;
  archived: ArchivedAttempts;
  updates: RecurrenceUpdateCounts;
  /** Runs of this workflow so far (continue-as-new starts the next one). */
  runs: number;
  /** Attempts webhooks announced that the bank's GET has yet to confirm; absent when there are none. */
  awaitingConfirmation?: string[];
  reason?: string;
}

export interface RecurrenceResult {
  outcome: RecurrenceOutcome;
  reason: string;
  recurrence: Recurrence;
  attemptsByStatus: Record<string, number>;
}

/** The attempts the sync found for this recurrence on one page. */
export interface AttemptsBatch {
  source: AttemptSource;
  attempts: RecurrenceAttempt[];
}

/** The part of a collection attempt the recurrence keeps, small enough to carry hundreds across runs. */
export function toRecurrenceAttempt(attempt: CollectionAttempt): RecurrenceAttempt {
  return {
    id: attempt.id,
    collectionId: attempt.collection_id,
    status: attempt.status,
    timestamp: attempt.timestamp,
    type: attempt.type,
    dueDate: attempt.due_date,
    endToEndId: attempt.end_to_end_id,
    transactionDate: attempt.transaction_date,
    sources: [],
  };
}

/**
 * The state without its attempt table, as the workflow publishes it in its memo (`memoKeys.state`): up to
 * `maxAttemptsKept` attempts are too many to rewrite into the history at every change.
 */
export type RecurrenceSummary = Omit<RecurrenceState, 'attempts'>;

/** The summary a recurrence's memo holds from its start, before the bank generated it. */
export function initialRecurrenceSummary(externalId: string): RecurrenceSummary {
  return {
    phase: 'generating',
    externalId,
    attemptsByStatus: {},
    archived: noArchivedAttempts(),
    updates: { applied: 0, duplicates: 0, stale: 0, ignored: 0, fromSync: 0, fromWebhooks: 0 },
    runs: 1,
  };
}

/** The state with its attempts; answered by the workflow, so it reflects every event the history holds. */
export const recurrenceStateQuery = defineQuery<RecurrenceState>('recurrenceState');
/**
 * Starts the recurrence and answers once the bank generated it (or refused it, as a failure with the bank's
 * reason). Sent with the workflow's start by every start under the external id; other terms are refused.
 */
export const recurrenceGeneratedUpdate = defineUpdate<Recurrence, [StartTerms]>('recurrenceGenerated');
/** Members of the generate request that are personal data: a conflict names them without their values. */
export const sensitiveRecurrenceTerms = ['counterparty', 'first_payment.dict_key'];
/** Attempts found by `syncRecurrenceAttempts`, one batch per recurrence per page. */
export const recurrenceAttemptsSignal = defineSignal<[AttemptsBatch]>('recurrenceAttempts');
/** A `recurrence_collection_attempt` webhook, routed by the receiver. */
export const recurrenceWebhookSignal = defineSignal<[ReceivedWebhook]>('recurrenceWebhook');

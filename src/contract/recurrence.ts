import type { BankTrouble } from './journeys.js';
import type { CollectionAttempt } from '../bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest, Recurrence } from '../bank/schemas/recurrence.js';

/**
 * The recurrence workflow's type, as the worker registers it; its id is
 * `workflowIds.recurrence(external_id)`.
 */
export const recurrenceWorkflowType = 'recurrenceWorkflow';
export type RecurrenceWorkflow = (input: RecurrenceInput) => Promise<RecurrenceResult>;

/** Where an attempt update came from. */
export type AttemptSource = 'sync' | 'webhook';

/** One collection attempt as the recurrence workflow knows it. */
export interface RecurrenceAttempt {
  id: string;
  collectionId: string;
  status: string;
  timestamp: string;
  type: string;
  dueDate: string;
  endToEndId: string | null;
  transactionDate: string | null;
  /** The paths that reported this status; a second path reporting it is a duplicate, not a second attempt. */
  sources: AttemptSource[];
}

/** Old final attempts no longer kept one by one: how many, by status, up to which attempt timestamp. */
export interface ArchivedAttempts {
  count: number;
  byStatus: Record<string, number>;
  through: string | null;
}

export const noArchivedAttempts = (): ArchivedAttempts => ({ count: 0, byStatus: {}, through: null });

/** An attempt a webhook announced, waiting for the bank's GET to show what the webhook said. */
export interface PendingConfirmation {
  id: string;
  /** The furthest status the webhooks about it claimed. */
  claimed: string;
  /** When the first of them arrived (epoch ms); the deadline runs from here. */
  since: number;
  /** When to read the attempt next (epoch ms). */
  nextAt: number;
  /** How long to wait after that read if it does not confirm. */
  waitMs: number;
}

/**
 * Recurrence statuses after which the bank collects nothing more: the workflow ends when the bank reports
 * one. `approved` (the spec's example) and `created` keep it running.
 */
export const endedRecurrenceStatuses = ['rejected', 'cancelled', 'expired'] as const;
export type RecurrenceOutcome = (typeof endedRecurrenceStatuses)[number];

export interface RecurrenceSettings {
  /** Continue-as-new once the run's history reaches this many events (or when Temporal suggests it). */
  maxHistoryEvents?: number;
  /** Attempts kept one by one; older final ones are folded into counts (the workflow's attempt table). */
  maxAttemptsKept?: number;
  /**
   * How long one run stays open before it continues as new (`runLifetime`, contract/journeys.ts); at most,
   * and by default, 30 days.
   */
  maxRunMs?: number;
}

export const defaultRecurrenceSettings: Required<Omit<RecurrenceSettings, 'maxRunMs'>> = {
  maxHistoryEvents: 2_000,
  maxAttemptsKept: 500,
};

/**
 * How long the bank is asked to generate a recurrence: an outage, a credential rotation (401) or an
 * unreadable answer is retried within it, and the recurrence is refused once it passes, so no start waits for
 * ever. The bank answers a repeated `external_id` with the first recurrence, so a retry creates nothing
 * twice.
 */
export const recurrenceGenerationWindowMs = 15 * 60_000;

/** What continue-as-new carries into the next run. */
export interface RecurrenceCarry {
  recurrence: Recurrence;
  attempts: RecurrenceAttempt[];
  archived: ArchivedAttempts;
  updates: RecurrenceUpdateCounts;
  runs: number;
  /** Webhook-announced attempts the bank's GET has yet to confirm; absent when there are none. */
  confirming?: PendingConfirmation[];
  /** The newest webhook keys heard, oldest first: a duplicate delivered to the next run is still one. */
  webhookKeys?: string[];
  /** The merchant notifications emitted so far: the next one's sequence follows it. */
  notified?: number;
  /** Why the bank's reads of announced attempts fail, while they do. */
  bankTrouble?: BankTrouble;
}

export interface RecurrenceInput {
  /** The full generate request; `external_id` names the workflow (`recurrence:<external_id>`). */
  request: GenerateRecurrenceRequest;
  settings?: RecurrenceSettings;
  resume?: RecurrenceCarry;
}

/**
 * `stopped`: the merchant cancelled the recurrence through bankflow (the cancel update), and bankflow no
 * longer follows it. The bank's API has no call that cancels a recurrence or reads one back, so the bank's
 * record keeps the status it had; the reason says so.
 */
export type RecurrencePhase = 'generating' | 'active' | 'refused' | 'stopped' | RecurrenceOutcome;

export interface RecurrenceUpdateCounts {
  /** Attempt updates that changed the table (a new attempt, or a newer status of a known one). */
  applied: number;
  /** The same attempt, status and timestamp again, e.g. from the sync after a webhook. */
  duplicates: number;
  /** An older status than the one known, e.g. a late webhook. */
  stale: number;
  /**
   * Webhooks whose data is not an attempt of this recurrence, by their own word or by the bank's GET of the
   * attempt they name, and those the GET never confirmed before the deadline.
   */
  ignored: number;
  fromSync: number;
  /** Webhooks about this recurrence's attempts; each is taken only as far as the bank's GET confirms it. */
  fromWebhooks: number;
  /**
   * Deliveries of a webhook already heard (by event key), in this run or an earlier one: nothing is read
   * again.
   */
  duplicateWebhooks?: number;
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
  /**
   * Why the bank's reads of announced attempts fail, while they do: the reads go on at the confirmations'
   * backoff and the trouble clears at the next answer.
   */
  bankTrouble?: BankTrouble;
  reason?: string;
}

export interface RecurrenceResult {
  outcome: RecurrenceOutcome | 'stopped';
  reason: string;
  recurrence: Recurrence;
  attemptsByStatus: Record<string, number>;
}

/** The merchant's cancel of a recurrence: why, in words kept in the workflow's outcome. */
export interface RecurrenceCancelRequest {
  reason: string;
}

/** The longest cancel reason taken, in characters. */
export const maxCancelReasonLength = 500;

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

/**
 * Members of the generate request that are personal data: a start-terms conflict names them without their
 * values.
 */
export const sensitiveRecurrenceTerms = ['counterparty', 'first_payment.dict_key'];

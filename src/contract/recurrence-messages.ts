import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { Recurrence } from '../bank/schemas/recurrence.js';
import type {
  AttemptsBatch,
  RecurrenceCancelRequest,
  RecurrenceResult,
  RecurrenceState,
} from './recurrence.js';
import type { StartTerms } from './start-terms.js';
import type { ReceivedWebhook } from './webhook-events.js';

/**
 * The state with its attempts; answered by the workflow, so it reflects every event the history holds. The
 * only read callers ask the workflow itself: its attempt table is too large for the memo.
 */
export const recurrenceStateQuery = defineQuery<RecurrenceState>('recurrenceState');
/**
 * Starts the recurrence and answers once the bank generated it (or refused it, as a failure with the bank's
 * reason). Sent with the workflow's start by every start under the external id; other terms are refused.
 */
export const recurrenceGeneratedUpdate = defineUpdate<Recurrence, [StartTerms]>('recurrenceGenerated');
/** Attempts found by the attempts sync, one batch per recurrence per batch of pages. */
export const recurrenceAttemptsSignal = defineSignal<[AttemptsBatch]>('recurrenceAttempts');
/** A `recurrence_collection_attempt` webhook, routed by the receiver. */
export const recurrenceWebhookSignal = defineSignal<[ReceivedWebhook]>('recurrenceWebhook');
/**
 * The merchant cancels the recurrence, with a reason: the workflow stops following it and ends, and the
 * update answers the workflow's result. Refused, naming the field, for a missing, blank or too long reason,
 * and for a recurrence that has already ended.
 */
export const cancelRecurrenceUpdate = defineUpdate<RecurrenceResult, [RecurrenceCancelRequest]>(
  'cancelRecurrence',
);

import type { Recurrence } from '../../bank/schemas/recurrence.js';
import { attemptNotification } from '../../contract/notifications.js';
import type { RecurrenceAttempt } from '../../contract/recurrence.js';
import { JourneyNotifier } from '../shared/journey-run.js';

/** The fields of the bank's recurrence a notification carries: not the payer's account. */
export const notifiedRecurrence = (recurrence: Recurrence) => ({
  id: recurrence.id,
  external_id: recurrence.external_id,
  status: recurrence.status,
  type: recurrence.type,
  periodicity: recurrence.periodicity,
  retry_policy: recurrence.retry_policy,
  contract_number: recurrence.contract_number,
  description: recurrence.description,
  start_date: recurrence.start_date,
  end_date: recurrence.end_date ?? null,
  fixed_amount: recurrence.fixed_amount ?? null,
  minimum_amount: recurrence.minimum_amount ?? null,
  maximum_amount: recurrence.maximum_amount ?? null,
  timestamp: recurrence.timestamp,
});

/**
 * The fields of an attempt, as the bank's record showed it, a notification carries; `sources` is how bankflow
 * heard of it, not the bank's.
 */
export const notifiedAttempt = (attempt: RecurrenceAttempt) => ({
  id: attempt.id,
  collection_id: attempt.collectionId,
  status: attempt.status,
  timestamp: attempt.timestamp,
  type: attempt.type,
  due_date: attempt.dueDate,
  end_to_end_id: attempt.endToEndId,
  transaction_date: attempt.transactionDate,
});

/**
 * A recurrence's notifications, all under the recurrence (`recurrence:<id>:<sequence>`), so one sequence
 * orders the recurrence and every attempt of it for the merchant.
 */
export class RecurrenceNotifier extends JourneyNotifier {
  /** The bank generated the recurrence and answered it as `recurrence`. */
  generated(recurrence: Recurrence): void {
    this.emit(
      { type: 'recurrence', id: recurrence.id },
      'recurrence.created',
      notifiedRecurrence(recurrence),
    );
  }

  /**
   * Attempts whose status the recurrence adopted from the bank's record (its list or its GET), oldest first.
   */
  attemptsMoved(recurrence: Recurrence, attempts: RecurrenceAttempt[]): void {
    for (const attempt of attempts)
      this.emit({ type: 'recurrence', id: recurrence.id }, attemptNotification(attempt.status), {
        recurrence: { id: recurrence.id, external_id: recurrence.external_id },
        attempt: notifiedAttempt(attempt),
      });
  }
}

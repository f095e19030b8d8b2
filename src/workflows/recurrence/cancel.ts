import { maxCancelReasonLength, type RecurrenceCancelRequest } from '../../contract/recurrence.js';
import { refusal } from '../shared/journey-run.js';
import type { RecurrenceJourney } from './state.js';

/**
 * The cancel update's validator: a reason of 1 to `maxCancelReasonLength` characters (not only spaces), and a
 * recurrence that has not ended. A refusal writes nothing to the history.
 */
export function checkCancel(request: RecurrenceCancelRequest | undefined, journey: RecurrenceJourney): void {
  const reason: unknown = request?.reason;
  if (typeof reason !== 'string' || reason.trim() === '')
    throw refusal('reason: required, a non-empty text saying why the recurrence is cancelled');
  if (reason.length > maxCancelReasonLength)
    throw refusal(`reason: at most ${maxCancelReasonLength} characters, got ${reason.length}`);
  if (journey.ended()) {
    const { phase, reason: why } = journey.state;
    throw refusal(`the recurrence has already ended (${phase})${why ? `: ${why}` : ''}`);
  }
}

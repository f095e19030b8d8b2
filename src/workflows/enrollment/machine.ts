import type { Enrollment } from '../../bank/schemas/enrollment.js';
import { HintLedger } from '../shared/hint-ledger.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import { accountMatchesSuggestion } from './account.js';
import {
  initialEnrollmentState,
  type EnrollmentInput,
  type EnrollmentJourney,
  type EnrollmentOutcome,
  type EnrollmentResult,
} from './definitions.js';

/**
 * The enrollment journey as data and pure transitions, free of Temporal so it can be tested alone. Only the bank's
 * own record (its answer to create, to register, or its enrollment list) moves the journey; a webhook is a hint
 * that makes the workflow ask the bank.
 */

const endingFor: Partial<Record<Enrollment['status'], EnrollmentOutcome>> = {
  rejected: 'rejected',
  revoked: 'revoked',
  inactive: 'expired',
};

export function startJourney(input: EnrollmentInput): EnrollmentJourney {
  return { state: initialEnrollmentState(input) };
}

/** Whether the journey reached an ending; `authorized` is an outcome the journey then stays in. */
export const ended = (journey: EnrollmentJourney) =>
  journey.state.phase !== 'authorized' && journey.state.reason !== undefined;

export const hasOutcome = (journey: EnrollmentJourney) => journey.state.reason !== undefined;

export function conclude(journey: EnrollmentJourney, outcome: EnrollmentOutcome, reason: string): void {
  if (ended(journey)) return;
  journey.state.phase = outcome;
  journey.state.reason = reason;
}

/**
 * Takes the bank's own record of the enrollment. An older view than the one held changes nothing; a final status
 * ends the journey. Answers whether the journey changed.
 */
export function bankAnswered(journey: EnrollmentJourney, record: Enrollment, source: string): boolean {
  const { state } = journey;
  const current = journey.enrollment;
  if (ended(journey) || (current && (record.id !== current.id || record.updated_at < current.updated_at)))
    return false;
  if (current && JSON.stringify(current) === JSON.stringify(record)) return false;
  journey.enrollment = record;
  state.enrollmentId = record.id;
  state.redirectUrl = record.redirect_url;
  state.expirationDatetime = record.expiration_datetime;
  state.accountInfo = record.account_info ?? state.accountInfo;
  const ending = endingFor[record.status];
  if (ending) conclude(journey, ending, `the bank reports the enrollment ${record.status} (${source})`);
  else if (record.status === 'awaiting_account_holder_validation' || record.status === 'awaiting_enrollment')
    state.phase = record.status;
  return true;
}

/**
 * The webhooks that asked the enrollment to read the bank, kept across its waits (hint-ledger.ts): one is pending
 * for as long as it would still send the workflow to the bank.
 */
export function enrollmentHints(journey: EnrollmentJourney): HintLedger<ReceivedWebhook> {
  return new HintLedger((event) => webhookHeard(journey, event) === 'ask-bank');
}

/**
 * Takes in a webhook as a hint: an event about this enrollment that reports another status than the bank's record
 * held sends the workflow to the bank; anything else changes nothing.
 */
export function webhookHeard(journey: EnrollmentJourney, event: ReceivedWebhook): 'ask-bank' | 'nothing' {
  const { resource } = event;
  if (resource?.kind !== 'enrollment' || resource.data.id !== journey.state.enrollmentId) return 'nothing';
  if (ended(journey) || resource.data.status === journey.enrollment?.status) return 'nothing';
  return 'ask-bank';
}

/** The step the journey waits in, or undefined once it has left the steps before authorization. */
export const pendingStep = (journey: EnrollmentJourney) =>
  journey.state.phase === 'awaiting_account_holder_validation' ||
  journey.state.phase === 'awaiting_enrollment'
    ? journey.state.phase
    : undefined;

export const bankAuthorized = (journey: EnrollmentJourney) => journey.enrollment?.status === 'authorized';

/**
 * Once the bank's record shows the enrollment authorized: the journey's outcome is authorized, or blocked when the
 * bank authorized another account than the merchant suggested.
 */
export function concludeAuthorized(journey: EnrollmentJourney, input: EnrollmentInput): void {
  if (
    input.suggestedAccount &&
    !accountMatchesSuggestion(input.suggestedAccount, journey.state.accountInfo ?? null)
  ) {
    conclude(
      journey,
      'blocked',
      'the bank authorized an account other than the suggested one; the enrollment is blocked',
    );
    return;
  }
  journey.state.phase = 'authorized';
  journey.state.reason = 'the enrollment is authorized and ready for payments';
}

/** A step's window passed while the bank's record still showed the step. */
export function stepExpired(journey: EnrollmentJourney): void {
  const step = pendingStep(journey);
  if (!step) return;
  conclude(
    journey,
    'expired',
    step === 'awaiting_account_holder_validation'
      ? 'the account holder did not authorize at the bank in time'
      : 'the biometric credential was not registered in time',
  );
}

export function enrollmentResult(journey: EnrollmentJourney): EnrollmentResult {
  const { state, enrollment } = journey;
  const outcome: EnrollmentOutcome =
    state.phase === 'authorized' ||
    state.phase === 'rejected' ||
    state.phase === 'revoked' ||
    state.phase === 'expired' ||
    state.phase === 'blocked'
      ? state.phase
      : 'expired';
  return { outcome, reason: state.reason ?? '', enrollment };
}

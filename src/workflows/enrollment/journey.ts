// The enrollment journey as data and pure transitions, free of Temporal so it can be tested alone. Only the
// bank's own record (its answer to create, to register, or its enrollment list) moves the journey; a webhook
// is a hint that makes the workflow ask the bank.
import { isKnownEnrollmentStatus } from '../../bank/vocabulary.js';
import type { AccountInfo, Enrollment, KnownEnrollment } from '../../bank/schemas/enrollment.js';
import type { SuggestedAccount } from '../../bank/schemas/enrollment-request.js';
import {
  enrollmentTimings,
  initialEnrollmentState,
  type EnrollmentInput,
  type EnrollmentJourney,
  type EnrollmentOutcome,
  type EnrollmentResult,
  type EnrollmentStarted,
  type EnrollmentState,
} from '../../contract/enrollment.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';
import { troubleDetail } from '../../contract/journeys.js';

const endingFor: Partial<Record<KnownEnrollment['status'], EnrollmentOutcome>> = {
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
 * Adopts the bank's own record of the enrollment. An older view than the one held changes nothing; a final
 * status ends the journey. A status bankflow does not know is data: kept as sent beside the journey's phase,
 * which stays where the last status it knows put it, until the bank shows one it knows. Answers whether the
 * journey changed.
 */
export function adoptRecord(journey: EnrollmentJourney, record: Enrollment, source: string): boolean {
  const { state } = journey;
  const current = journey.enrollment;
  if (ended(journey) || (current && (record.id !== current.id || record.updated_at < current.updated_at)))
    return false;
  if (!hasKnownStatus(record)) {
    if (state.unknownStatus === record.status) return false;
    state.unknownStatus = record.status;
    state.enrollmentId ??= record.id;
    return true;
  }
  const wasUnknown = state.unknownStatus !== undefined;
  delete state.unknownStatus;
  if (current && JSON.stringify(current) === JSON.stringify(record)) return wasUnknown;
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

const hasKnownStatus = (record: Enrollment): record is KnownEnrollment =>
  isKnownEnrollmentStatus(record.status);

/**
 * Takes in a webhook as a hint; answers whether it sends the workflow to the bank: an event about this
 * enrollment that reports another status than the bank's record held does, for as long as that holds.
 */
export function webhookHeard(journey: EnrollmentJourney, event: ReceivedWebhook): boolean {
  const { resource } = event;
  if (resource?.kind !== 'enrollment' || resource.data.id !== journey.state.enrollmentId) return false;
  const { status } = resource.data;
  if (!isKnownEnrollmentStatus(status)) return !ended(journey) && status !== journey.state.unknownStatus;
  return !ended(journey) && status !== journey.enrollment?.status;
}

/** The bank's window for a step before authorization, from when the journey reached it. */
export const stepWindowMs = (
  input: EnrollmentInput,
  step: 'awaiting_account_holder_validation' | 'awaiting_enrollment',
) =>
  step === 'awaiting_account_holder_validation'
    ? (input.deadlines?.accountHolderValidationMs ?? enrollmentTimings.accountHolderValidationMs)
    : (input.deadlines?.registrationMs ?? enrollmentTimings.registrationMs);

/** The step the journey waits in, or undefined once it has left the steps before authorization. */
export const pendingStep = (journey: EnrollmentJourney) =>
  journey.state.phase === 'awaiting_account_holder_validation' ||
  journey.state.phase === 'awaiting_enrollment'
    ? journey.state.phase
    : undefined;

export const bankAuthorized = (journey: EnrollmentJourney) => journey.enrollment?.status === 'authorized';

/**
 * Once the bank's record shows the enrollment authorized: the journey's outcome is authorized, or blocked
 * when the bank authorized another account than the merchant suggested.
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

/** What the merchant's start is answered with once the bank created the enrollment. */
export const started = (created: Enrollment): EnrollmentStarted => ({
  enrollmentId: created.id,
  redirectUrl: created.redirect_url,
  status: created.status,
  expirationDatetime: created.expiration_datetime,
});

const digitsOf = (text: string) => text.replace(/\D/g, '');

/**
 * Whether the account the bank authorized is the one the merchant suggested. The suggestion writes the check
 * digit inside `number` (`12345-6`) and the branch as `issuer`; the bank keeps `digit` apart.
 */
export function accountMatchesSuggestion(
  suggested: SuggestedAccount,
  authorized: AccountInfo | null,
): boolean {
  if (!authorized) return false;
  return (
    suggested.ispb === authorized.ispb &&
    digitsOf(suggested.issuer) === digitsOf(authorized.branch) &&
    digitsOf(suggested.number) === digitsOf(`${authorized.number}${authorized.digit}`)
  );
}

function waitingFor(state: EnrollmentState): string {
  switch (state.phase) {
    case 'creating':
      return 'the bank to create the enrollment';
    case 'awaiting_account_holder_validation':
      return 'the account holder to authorize at the bank';
    case 'awaiting_enrollment':
      return 'the biometric credential registration';
    default:
      return 'the bank to confirm';
  }
}

/** The enrollment's current details in the Temporal UI, by paragraph. */
export const enrollmentDetails = (state: EnrollmentState): string[] => [
  `**Enrollment** ${state.enrollmentId ?? '(not created yet)'} — **${state.phase}**` +
    (state.unknownStatus ? ` (the bank shows ${state.unknownStatus}, a status bankflow does not know)` : ''),
  ...(state.bankTrouble ? [troubleDetail(state.bankTrouble)] : []),
  `Device ${state.deviceId}, participant ${state.participantId}`,
  state.reason ? `Outcome: ${state.reason}` : `Waiting for: ${waitingFor(state)}`,
  `Webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored), polls: ${state.polls}`,
];

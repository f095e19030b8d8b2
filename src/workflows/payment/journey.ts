import { isKnownPaymentStatus, webhookCategories } from '../../bank/vocabulary.js';
import type {
  BiometricPayment,
  BiometricPaymentStatus,
  KnownBiometricPayment,
} from '../../bank/schemas/biometric-payment.js';
import {
  initialPaymentState,
  paymentTimings,
  type PaymentEvidence,
  type PaymentInput,
  type PaymentJourney,
  type PaymentResult,
  type PaymentTimings,
  type FinalPaymentStatus,
} from '../../contract/payment.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';

// The payment journey as data and pure transitions, free of Temporal. Only the bank's own record (its answer
// to create, to authorize, or a GET) moves it; a webhook is a hint to ask the bank, none of its fields is
// adopted.

/** Where the bank's record comes from: its answer to one of the workflow's own calls. */
export type BankRecordSource = 'create' | 'authorize' | 'poll';

/** The evidence kept for callers and support staff; older entries give way so the memo stays small. */
const keptEvidence = 40;

export function startJourney(input: PaymentInput): PaymentJourney {
  return { state: initialPaymentState(input), authorizedAtBank: false, cashIns: [] };
}

/** Records a piece of evidence, keeping only the newest `keptEvidence`. */
export function note(journey: PaymentJourney, entry: PaymentEvidence): void {
  const { evidence } = journey.state;
  evidence.push(entry);
  if (evidence.length > keptEvidence) evidence.splice(0, evidence.length - keptEvidence);
}

export const isFinal = (journey: PaymentJourney) =>
  journey.payment !== undefined && isFinalPaymentStatus(journey.payment.status);

/** Whether the bank still waits for the customer's assertion (or the payment does not exist yet). */
export const awaitingCustomer = (journey: PaymentJourney) =>
  journey.payment === undefined || awaitsConsent(journey.payment.status);

/** Whether a settled Pix cash-in for the end-to-end id the bank's record shows was heard. */
export const cashInHeard = (journey: PaymentJourney) => {
  const endToEndId = journey.payment?.end_to_end_id;
  return Boolean(endToEndId && journey.cashIns.includes(endToEndId));
};

/**
 * The customer's consent window opens once the bank created the payment: `windowMs`, the bank's by default.
 */
export function openConsentWindow(journey: PaymentJourney, now: number, windowMs: number | undefined): void {
  journey.state.consentDeadline = new Date(now + (windowMs ?? paymentTimings.consentWindowMs)).toISOString();
}

export function consentClosed(journey: PaymentJourney, now: number): boolean {
  const deadline = journey.state.consentDeadline;
  return deadline !== undefined && now >= Date.parse(deadline);
}

/** Why `what` cannot be done now, or undefined while the customer may still consent. */
export function consentRefusal(journey: PaymentJourney, what: string, now: number): string | undefined {
  const { state } = journey;
  if (!journey.payment || !awaitsConsent(journey.payment.status))
    return `${what} is possible only while the payment awaits consent; it is ${state.phase}`;
  if (consentClosed(journey, now)) return `the consent window closed at ${state.consentDeadline}`;
  return undefined;
}

/**
 * Adopts the bank's own record of the payment. An older view (the bank answering from before a change it
 * already reported) changes nothing, but a field the bank newly fills for the same status is kept. A status
 * bankflow does not know is data: kept as sent and shown as `unknown` while the journey goes on from the last
 * status it knows, until the bank shows one it does. Answers whether the journey changed.
 */
export function adoptRecord(
  journey: PaymentJourney,
  record: BiometricPayment,
  source: BankRecordSource,
  at: string,
): boolean {
  const current = journey.payment;
  if (current && record.id !== current.id) return false;
  if (!hasKnownStatus(record)) return unknownStatusAnswered(journey, record, source, at);
  const { state } = journey;
  const wasUnknown = state.unknownStatus !== undefined;
  delete state.unknownStatus;
  if (current && !movesForward(current.status, record.status)) {
    if (wasUnknown) state.phase = phaseOf(current.status);
    if (record.status !== current.status) return wasUnknown;
    const endToEndId = current.end_to_end_id ?? record.end_to_end_id;
    const transactionDate = current.transaction_date ?? record.transaction_date;
    if (endToEndId === current.end_to_end_id && transactionDate === current.transaction_date)
      return wasUnknown;
    journey.payment = { ...current, end_to_end_id: endToEndId, transaction_date: transactionDate };
  } else {
    journey.payment = record;
    note(journey, { source, status: record.status, at });
  }
  const payment = journey.payment;
  state.paymentId = payment.id;
  state.endToEndId = payment.end_to_end_id;
  state.transactionDate = payment.transaction_date;
  state.phase = phaseOf(payment.status, state.phase);
  if (source === 'authorize' || payment.status === 'awaiting_payment' || payment.status === 'settled')
    journey.authorizedAtBank = true;
  return true;
}

const hasKnownStatus = (record: BiometricPayment): record is KnownBiometricPayment =>
  isKnownPaymentStatus(record.status);

/**
 * The phase a known status puts the journey in; `pending` (before the bank's lifecycle) keeps the one it had.
 */
function phaseOf(status: BiometricPaymentStatus, previous: PaymentJourney['state']['phase'] = 'creating') {
  return status === 'pending' ? previous : status;
}

/**
 * A record in a status bankflow does not know: noted once per status, the journey's record kept as it was.
 */
function unknownStatusAnswered(
  journey: PaymentJourney,
  record: BiometricPayment,
  source: BankRecordSource,
  at: string,
): boolean {
  const { state } = journey;
  if (state.unknownStatus === record.status) return false;
  state.unknownStatus = record.status;
  state.phase = 'unknown';
  state.paymentId ??= record.id;
  const detail =
    'a status bankflow does not know: shown as unknown, the bank followed until it shows one it knows';
  note(journey, { source, status: record.status, at, detail });
  return true;
}

/**
 * Takes in a webhook as a hint; answers whether it sends the workflow to the bank's GET now: a payment event
 * that would change what the workflow does next does. A step within the wait for consent, an event naming
 * another payment, a stale one or one without a payment is noted. A Pix cash-in is evidence of the settlement
 * its end-to-end id names, once the bank's record shows that id.
 */
export function webhookHeard(journey: PaymentJourney, event: ReceivedWebhook, at: string): boolean {
  const { envelope, resource } = event;
  if (envelope.category === webhookCategories.collectingDocument) {
    if (resource?.kind !== 'cash-in' || resource.data.status !== 'settled') return false;
    const endToEndId = resource.data.end_to_end_id;
    if (journey.cashIns.includes(endToEndId)) return false;
    journey.cashIns.push(endToEndId);
    const detail = `Pix cash-in ${resource.data.id} for ${endToEndId}`;
    note(journey, { source: 'cash-in webhook', status: 'settled', at, detail });
    return !isFinal(journey);
  }
  const heard = (status: string, detail: string, asks = false) => {
    note(journey, { source: 'webhook', status, at, detail });
    return asks;
  };
  if (resource?.kind !== 'payment') return heard(envelope.type, 'ignored: the event data is not a payment');
  const hinted = resource.data;
  const paymentId = journey.payment?.id ?? 'this one (not created yet)';
  if (hinted.id !== journey.payment?.id)
    return heard(hinted.status, `ignored: it names payment ${hinted.id}, not ${paymentId}`);
  if (!isKnownPaymentStatus(hinted.status)) {
    if (journey.state.unknownStatus === hinted.status) return false;
    return heard(hinted.status, "a status bankflow does not know: the workflow asks the bank's GET", true);
  }
  const current = journey.payment?.status;
  if (!movesForward(current, hinted.status)) return false;
  if (!changesCourse(current, hinted.status))
    return heard(hinted.status, "a step the workflow waits through alike: the bank's next read confirms it");
  return heard(hinted.status, "a hint: the workflow asks the bank's GET before taking it", true);
}

/**
 * Whether the bank's record, as the journey holds it, is still behind what a hint named (a cash-in: settled).
 */
export function hintStillAhead(journey: PaymentJourney, event: ReceivedWebhook): boolean {
  const named = event.resource?.kind === 'payment' ? event.resource.data.status : 'settled';
  if (!isKnownPaymentStatus(named)) return journey.state.unknownStatus !== named;
  return movesForward(journey.payment?.status, named);
}

/**
 * How the workflow follows the bank from now: until when, whether it asks often, and for which customer side.
 */
export type FollowPlan = { until: number; frequent: boolean; awaitingCustomer: boolean };

/**
 * The next stretch of following the bank, or undefined once the record is final or the deadline passed. A
 * payment still awaiting consent after its window is followed until `afterConsentWindowMs` past it; one in
 * processing for `processingMs` from when the bank first showed it so, often during the first
 * `frequentPollingMs`.
 */
export function followPlan(
  journey: PaymentJourney,
  now: number,
  timings: Pick<
    PaymentTimings,
    'afterConsentWindowMs' | 'processingMs' | 'frequentPollingMs'
  > = paymentTimings,
): FollowPlan | undefined {
  if (isFinal(journey)) return undefined;
  if (awaitingCustomer(journey)) {
    const until = Date.parse(journey.state.consentDeadline ?? '') + timings.afterConsentWindowMs;
    return now < until ? { until, frequent: true, awaitingCustomer: true } : undefined;
  }
  journey.processingSince ??= new Date(now).toISOString();
  const since = Date.parse(journey.processingSince);
  const until = since + timings.processingMs;
  if (now >= until) return undefined;
  const frequentUntil = since + timings.frequentPollingMs;
  return now < frequentUntil
    ? { until: frequentUntil, frequent: true, awaitingCustomer: false }
    : { until, frequent: false, awaitingCustomer: false };
}

/**
 * The journey's result from what the bank's own record shows, recorded in its state: a final status is the
 * outcome; anything else means the workflow stopped following before the bank finished.
 */
export function conclude(journey: PaymentJourney, now: number): PaymentResult {
  const { payment, authorizedAtBank, state } = journey;
  const details = {
    paymentId: payment?.id,
    endToEndId: payment?.end_to_end_id ?? null,
    transactionDate: payment?.transaction_date ?? null,
    evidence: state.evidence,
  };
  const last = payment?.status ?? 'nothing';
  let result: PaymentResult;
  if (payment && isFinalPaymentStatus(payment.status)) {
    const closed = consentClosed(journey, now) ? ' (the consent window closed)' : '';
    const reason = authorizedAtBank
      ? `the bank reports the payment ${payment.status}`
      : `the bank reports the payment ${payment.status} before the customer authorized it${closed}`;
    result = { ...details, outcome: payment.status, status: payment.status, reason };
  } else {
    const reason = authorizedAtBank
      ? `the bank did not finish processing the payment in time; its record last showed ${last}`
      : `the consent window closed before the customer authorized the payment; the bank's record last showed ${last}`;
    result = { ...details, outcome: 'expired', status: payment?.status ?? null, reason };
  }
  state.phase = result.outcome;
  state.reason = result.reason;
  return result;
}

const rank: Record<BiometricPaymentStatus, number> = {
  pending: 0,
  created: 1,
  awaiting_consent: 2,
  awaiting_payment: 3,
  settled: 4,
  failed: 4,
  rejected: 4,
};

export const isFinalPaymentStatus = (status: BiometricPaymentStatus): status is FinalPaymentStatus =>
  rank[status] === 4;

/** Whether the customer's consent is still to come: the bank has not taken an assertion for the payment. */
export const awaitsConsent = (status: BiometricPaymentStatus) => rank[status] <= 2;

/**
 * Whether `next` moves the payment forward from `current`. Statuses only move forward, so an answer that
 * reflects an older state of the bank (awaiting_payment after settled) is stale and ignored; a final status
 * never changes.
 */
export function movesForward(
  current: BiometricPaymentStatus | undefined,
  next: BiometricPaymentStatus,
): boolean {
  if (current === undefined) return true;
  if (isFinalPaymentStatus(current)) return false;
  return rank[next] > rank[current];
}

/**
 * Whether the bank's record moving from `current` to `next` changes what the workflow does next: the
 * customer's consent is taken, or the payment ends. A move within the wait for consent (`created` to
 * `awaiting_consent`) does not.
 */
export const changesCourse = (current: BiometricPaymentStatus | undefined, next: BiometricPaymentStatus) =>
  movesForward(current, next) &&
  (current === undefined || isFinalPaymentStatus(next) || awaitsConsent(current) !== awaitsConsent(next));

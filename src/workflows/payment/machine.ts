import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import { webhookCategories } from '../../bank/webhook-categories.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import {
  initialPaymentState,
  type PaymentEvidence,
  type PaymentInput,
  type PaymentJourney,
  type PaymentResult,
} from './definitions.js';
import { awaitsConsent, isFinalPaymentStatus, movesForward } from './status.js';
import { paymentTimings, type PaymentTimings } from './timings.js';

/**
 * The payment journey as data and pure transitions, free of Temporal so it can be tested alone. The rule it
 * keeps: only the bank's own record (its answer to create, to authorize, or a GET) moves the journey; a webhook is
 * a hint that makes the workflow ask the bank, and none of its fields is ever adopted.
 */

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

/** Where the bank's record comes from: its answer to one of the workflow's own calls. */
export type BankRecordSource = 'create' | 'authorize' | 'poll';

/**
 * Takes the bank's own record of the payment. An older view (the bank answering from before a change it already
 * reported) changes nothing, but a field the bank newly fills for the same status is kept. Answers whether the
 * journey changed.
 */
export function bankAnswered(
  journey: PaymentJourney,
  record: BiometricPayment,
  source: BankRecordSource,
  at: string,
): boolean {
  const current = journey.payment;
  if (current && record.id !== current.id) return false;
  if (current && !movesForward(current.status, record.status)) {
    if (record.status !== current.status) return false;
    const endToEndId = current.end_to_end_id ?? record.end_to_end_id;
    const transactionDate = current.transaction_date ?? record.transaction_date;
    if (endToEndId === current.end_to_end_id && transactionDate === current.transaction_date) return false;
    journey.payment = { ...current, end_to_end_id: endToEndId, transaction_date: transactionDate };
  } else {
    journey.payment = record;
    note(journey, { source, status: record.status, at });
  }
  const { state } = journey;
  const payment = journey.payment;
  state.paymentId = payment.id;
  state.endToEndId = payment.end_to_end_id;
  state.transactionDate = payment.transaction_date;
  if (payment.status !== 'pending') state.phase = payment.status;
  if (source === 'authorize' || payment.status === 'awaiting_payment' || payment.status === 'settled')
    journey.authorizedAtBank = true;
  return true;
}

/** What a webhook asks of the workflow: to read the bank's record now, or nothing. */
export type WebhookEffect = 'ask-bank' | 'nothing';

/**
 * Takes in a webhook as a hint. A payment event that would move this payment on sends the workflow to the bank's
 * GET; an event naming another payment, a stale one, or one without a payment is noted and changes nothing. A
 * Pix cash-in is evidence of the settlement once the bank's own record shows the same end-to-end id.
 */
export function webhookHeard(journey: PaymentJourney, event: ReceivedWebhook, at: string): WebhookEffect {
  const { envelope, resource } = event;
  const paymentId = journey.payment?.id;
  if (envelope.category === webhookCategories.collectingDocument) {
    if (resource?.kind !== 'cash-in' || resource.data.status !== 'settled') return 'nothing';
    const endToEndId = resource.data.end_to_end_id;
    if (journey.cashIns.includes(endToEndId)) return 'nothing';
    journey.cashIns.push(endToEndId);
    note(journey, {
      source: 'cash-in webhook',
      status: 'settled',
      at,
      detail: `Pix cash-in ${resource.data.id} for ${endToEndId}`,
    });
    return isFinal(journey) ? 'nothing' : 'ask-bank';
  }
  if (resource?.kind !== 'payment') {
    note(journey, {
      source: 'webhook',
      status: envelope.type,
      at,
      detail: 'ignored: the event data is not a payment',
    });
    return 'nothing';
  }
  const hinted = resource.data;
  if (hinted.id !== paymentId) {
    note(journey, {
      source: 'webhook',
      status: hinted.status,
      at,
      detail: `ignored: it names payment ${hinted.id}, not ${paymentId ?? 'this one (not created yet)'}`,
    });
    return 'nothing';
  }
  if (!movesForward(journey.payment?.status, hinted.status)) return 'nothing';
  note(journey, {
    source: 'webhook',
    status: hinted.status,
    at,
    detail: "a hint: the workflow asks the bank's GET before taking it",
  });
  return 'ask-bank';
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

export function consentClosed(journey: PaymentJourney, now: number): boolean {
  const deadline = journey.state.consentDeadline;
  return deadline !== undefined && now >= Date.parse(deadline);
}

/** Why `what` cannot be done now, or undefined while the customer may still consent. */
export function consentRefusal(journey: PaymentJourney, what: string, now: number): string | undefined {
  const { state } = journey;
  if (!journey.payment || !awaitsConsent(journey.payment.status)) {
    return `${what} is possible only while the payment awaits consent; it is ${state.phase}`;
  }
  if (consentClosed(journey, now)) return `the consent window closed at ${state.consentDeadline}`;
  return undefined;
}

/**
 * The journey's result from what the bank's own record shows: a final status is the outcome; anything else
 * means the workflow stopped following before the bank finished, and says which status it saw last.
 */
export function paymentResult(journey: PaymentJourney, now: number): PaymentResult {
  const { payment, authorizedAtBank, state } = journey;
  const details = {
    paymentId: payment?.id,
    endToEndId: payment?.end_to_end_id ?? null,
    transactionDate: payment?.transaction_date ?? null,
    evidence: state.evidence,
  };
  if (payment && isFinalPaymentStatus(payment.status)) {
    const closed = consentClosed(journey, now) ? ' (the consent window closed)' : '';
    const reason = authorizedAtBank
      ? `the bank reports the payment ${payment.status}`
      : `the bank reports the payment ${payment.status} before the customer authorized it${closed}`;
    return { ...details, outcome: payment.status, status: payment.status, reason };
  }
  const reason = authorizedAtBank
    ? `the bank did not finish processing the payment in time; its record last showed ${payment?.status ?? 'nothing'}`
    : `the consent window closed before the customer authorized the payment; the bank's record last showed ${payment?.status ?? 'nothing'}`;
  return { ...details, outcome: 'expired', status: payment?.status ?? null, reason };
}

/** How the workflow follows the bank from now: until when, and whether it asks often. */
export interface FollowPlan {
  until: number;
  frequent: boolean;
  /** The customer-side status the plan was made for; a change means a new plan. */
  awaitingCustomer: boolean;
}

/**
 * The next stretch of following the bank, or undefined when there is none: the record is final or the deadline
 * passed. A payment still awaiting consent after its window is followed until `afterConsentWindowMs` past it; one
 * in processing for `processingMs` from when the bank first showed it so, often during the first
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

/** Records how the journey ended in what callers and support staff read. */
export function conclude(journey: PaymentJourney, result: PaymentResult): void {
  journey.state.phase = result.outcome;
  journey.state.reason = result.reason;
}

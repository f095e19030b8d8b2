import {
  initialPaymentState,
  type PaymentEvidence,
  type PaymentInput,
  type PaymentJourney,
} from './definitions.js';
import { awaitsConsent, isFinalPaymentStatus } from './status.js';
import { paymentTimings } from './timings.js';

/** The evidence kept for callers and support staff; older entries give way so the memo stays small. */
const keptEvidence = 40;

export function startJourney(input: PaymentInput): PaymentJourney {
  return { state: initialPaymentState(input), authorizedAtBank: false, cashIns: [] };
}

/** The customer's consent window opens once the bank created the payment: `windowMs`, the bank's by default. */
export function openConsentWindow(journey: PaymentJourney, windowMs: number | undefined): void {
  journey.state.consentDeadline = new Date(
    Date.now() + (windowMs ?? paymentTimings.consentWindowMs),
  ).toISOString();
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

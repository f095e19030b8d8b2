import type { PaymentJourney, PaymentResult } from './definitions.js';
import { consentClosed } from './journey.js';
import { isFinalPaymentStatus } from './status.js';

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

/** Records how the journey ended in what callers and support staff read. */
export function conclude(journey: PaymentJourney, result: PaymentResult): void {
  journey.state.phase = result.outcome;
  journey.state.reason = result.reason;
}

import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import type { PaymentJourney } from './definitions.js';
import { note } from './journey.js';
import { movesForward } from './status.js';

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

import type { BiometricPayment, BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';
import type { NotificationType } from '../../contract/notifications.js';
import type { PaymentJourney } from '../../contract/payment.js';
import { JourneyNotifier } from '../shared/notifications.js';

/**
 * What each status tells the merchant: `created` and `awaiting_consent` both wait for the customer's
 * assertion.
 */
const statusNotifications: Partial<Record<BiometricPaymentStatus, NotificationType>> = {
  created: 'payment.awaiting_authorization',
  awaiting_consent: 'payment.awaiting_authorization',
  awaiting_payment: 'payment.authorized',
  settled: 'payment.settled',
  failed: 'payment.failed',
  rejected: 'payment.failed',
};

/**
 * The events the journey owes the merchant when it adopts the bank's record with status `next` after
 * `previous`: `payment.created` for the first record, then one each time it moves to a state the merchant
 * acts on.
 */
export function paymentNotifications(
  previous: BiometricPaymentStatus | undefined,
  { payment }: PaymentJourney,
): NotificationType[] {
  if (!payment) return [];
  const types: NotificationType[] = previous === undefined ? ['payment.created'] : [];
  const moved = statusNotifications[payment.status];
  if (moved && moved !== (previous && statusNotifications[previous])) types.push(moved);
  return types;
}

/** A payment journey's notifications: what adopting the bank's record owes the merchant. */
export class PaymentNotifier extends JourneyNotifier {
  /** Emits the events adopting `journey`'s record, moved on from `previous`, owes. */
  adopted(previous: BiometricPaymentStatus | undefined, journey: PaymentJourney): void {
    this.emitAll(journey.payment, paymentNotifications(previous, journey));
  }

  /**
   * Emits `payment.expired`: the journey stopped following before the bank's record showed a final status.
   */
  expired(journey: PaymentJourney): void {
    this.emitAll(journey.payment, ['payment.expired']);
  }

  private emitAll(payment: BiometricPayment | undefined, types: NotificationType[]): void {
    if (!payment) return;
    for (const type of types) this.emit({ type: 'payment', id: payment.id }, type, notifiedPayment(payment));
  }
}

/** The fields of the bank's record a notification carries: the bank's reference fields stay out. */
export const notifiedPayment = (payment: BiometricPayment) => ({
  id: payment.id,
  external_id: payment.external_id,
  status: payment.status,
  amount: payment.amount,
  description: payment.description,
  end_to_end_id: payment.end_to_end_id,
  transaction_date: payment.transaction_date,
  virtual_account_id: payment.virtual_account_id,
  inserted_at: payment.inserted_at,
  updated_at: payment.updated_at,
});

import type { BiometricPayment, BiometricPaymentStatus } from '../../src/bank/schemas/biometric-payment.js';
import type { PaymentJourney } from '../../src/contract/payment.js';
import { paymentNotifications } from '../../src/workflows/payment/run.js';

const journeyAt = (status: BiometricPaymentStatus) =>
  ({ payment: { id: 'p-1', status } as BiometricPayment }) as PaymentJourney;

describe('the notifications a payment journey owes for the bank record it adopts', () => {
  it('announces the first record as created, then each state the merchant acts on once', () => {
    expect(paymentNotifications(undefined, journeyAt('pending'))).toEqual(['payment.created']);
    expect(paymentNotifications(undefined, journeyAt('created'))).toEqual([
      'payment.created',
      'payment.awaiting_authorization',
    ]);
    expect(paymentNotifications('pending', journeyAt('created'))).toEqual(['payment.awaiting_authorization']);
    expect(paymentNotifications('created', journeyAt('awaiting_consent'))).toEqual([]);
    expect(paymentNotifications('awaiting_consent', journeyAt('awaiting_payment'))).toEqual([
      'payment.authorized',
    ]);
    expect(paymentNotifications('awaiting_payment', journeyAt('settled'))).toEqual(['payment.settled']);
    expect(paymentNotifications('created', journeyAt('rejected'))).toEqual(['payment.failed']);
    expect(paymentNotifications('awaiting_payment', journeyAt('failed'))).toEqual(['payment.failed']);
    // A field the bank newly fills for the same status owes nothing.
    expect(paymentNotifications('settled', journeyAt('settled'))).toEqual([]);
  });
});

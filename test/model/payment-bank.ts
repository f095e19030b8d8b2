import {
  biometricPaymentSchema,
  type BiometricPaymentStatus,
  type KnownBiometricPayment,
} from '../../src/bank/schemas/biometric-payment.js';
import type { CreateBiometricPaymentRequest } from '../../src/bank/schemas/biometric-payment-request.js';
import type { AuthorizePaymentRequest } from '../../src/bank/schemas/fido.js';
import { awaitsConsent, isFinalPaymentStatus } from '../../src/workflows/payment/status.js';
import { conflict, FaultQueue, invalidAssertion } from './faults.js';
import { RecordHistory, versionTime } from './record-history.js';

export const validAssertion = 'valid-assertion';

/** Where the bank itself may take a payment from each status (authorization is the customer's move). */
export const paymentMoves: Record<BiometricPaymentStatus, BiometricPaymentStatus[]> = {
  pending: ['created', 'awaiting_consent', 'rejected'],
  created: ['awaiting_consent', 'rejected'],
  awaiting_consent: ['rejected'],
  awaiting_payment: ['settled', 'failed'],
  settled: [],
  failed: [],
  rejected: [],
};

/**
 * One payment as the bank holds it: the true record, the lagging view its GET answers, and the calls the workflow
 * made. A repeated create answers the first payment (its external id); a second assertion is refused with 409.
 */
export class PaymentBank {
  readonly record = new RecordHistory<KnownBiometricPayment>();
  readonly faults = new FaultQueue();
  acceptedAuthorizations = 0;
  readonly id: string;

  constructor(
    readonly index: number,
    private readonly initialStatus: BiometricPaymentStatus,
  ) {
    this.id = `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  }

  get status(): BiometricPaymentStatus | undefined {
    return this.record.latest?.status;
  }

  /** Changes the true record, as the bank's own processing does. */
  change(status: BiometricPaymentStatus, lag = 0): KnownBiometricPayment {
    const current = this.record.latest;
    if (!current) throw new Error('the payment does not exist yet');
    const next: KnownBiometricPayment = {
      ...current,
      status,
      updated_at: versionTime(this.record.versions.length),
      transaction_date: status === 'settled' ? '2030-01-01' : current.transaction_date,
    };
    this.record.push(next, lag);
    return next;
  }

  readonly activities = {
    createBiometricPayment: (request: CreateBiometricPaymentRequest) =>
      this.faults.call(
        'createBiometricPayment',
        () => {
          if (!this.record.latest) this.record.push(this.initialRecord(request), 0);
          return this.record.show(this.record.latest as KnownBiometricPayment);
        },
        true,
      ),
    getBiometricPayment: () =>
      this.record.show(
        this.faults.read(
          'getBiometricPayment',
          () => {
            const record = this.record.current();
            if (!record) throw conflict('getBiometricPayment', 'no such payment');
            return record;
          },
          biometricPaymentSchema,
        ),
      ),
    getPaymentAuthorizationOptions: () =>
      this.faults.call('getPaymentAuthorizationOptions', () => ({ public_key_encoded: 'model-options' })),
    authorizeBiometricPayment: (request: AuthorizePaymentRequest) =>
      this.faults.call('authorizeBiometricPayment', () => this.authorize(request), true),
  };

  private authorize(request: AuthorizePaymentRequest): KnownBiometricPayment {
    const current = this.record.latest;
    if (!current || !awaitsConsent(current.status) || isFinalPaymentStatus(current.status))
      throw conflict('authorizeBiometricPayment', `the payment is ${current?.status ?? 'unknown'}`);
    if ((request.fido_assertion as { id?: string }).id !== validAssertion)
      throw invalidAssertion('authorizeBiometricPayment');
    this.acceptedAuthorizations++;
    const next: KnownBiometricPayment = {
      ...current,
      status: 'awaiting_payment',
      end_to_end_id: `E00000000203001011200model${String(this.index).padStart(6, '0')}`,
      updated_at: versionTime(this.record.versions.length),
    };
    this.record.push(next, 0);
    return this.record.show(next);
  }

  private initialRecord(request: CreateBiometricPaymentRequest): KnownBiometricPayment {
    return {
      id: this.id,
      amount: { amount: request.amount, currency: 'BRL' },
      description: request.description,
      external_id: request.external_id ?? null,
      end_to_end_id: null,
      status: this.initialStatus,
      transaction_date: null,
      virtual_account_id: request.virtual_account_id,
      inserted_at: versionTime(0),
      updated_at: versionTime(0),
    } as KnownBiometricPayment;
  }
}

import { z } from 'zod';
import { toPage } from '../../src/bank/pagination.js';
import {
  biometricPaymentSchema,
  type BiometricPaymentStatus,
  type KnownBiometricPayment,
} from '../../src/bank/schemas/biometric-payment.js';
import type { CreateBiometricPaymentRequest } from '../../src/bank/schemas/biometric-payment-request.js';
import type { AuthorizePaymentRequest } from '../../src/bank/schemas/fido.js';
import { enrollmentSchema, type KnownEnrollment } from '../../src/bank/schemas/enrollment.js';
import { awaitsConsent, isFinalPaymentStatus } from '../../src/workflows/payment/journey.js';
import { conflict, FaultQueue, invalidAssertion } from './faults.js';
import { RecordHistory, versionTime } from './record-history.js';

export const validAssertion = 'valid-assertion';

export const modelEnrollmentId = '20000000-0000-4000-8000-000000000001';

/** The enrollment every model payment is made on, authorized at the bank. */
const authorizedEnrollment = (deviceId: string): KnownEnrollment => ({
  id: modelEnrollmentId,
  device_id: deviceId,
  participant_id: '30000000-0000-4000-8000-000000000001',
  external_id: null,
  status: 'authorized',
  redirect_url: 'https://participant.example/authorize',
  expiration_datetime: null,
  inserted_at: '2030-01-01T12:00:00.000Z',
  updated_at: '2030-01-01T12:00:00.000Z',
});

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
 * One payment as the bank holds it: the true record, the lagging view its GET answers, and the calls the
 * workflow made. A repeated create answers the first payment (its external id); a second assertion is refused
 * with 409.
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
    /** The check before the payment: a read like the payment's own, meeting the same read faults. */
    listEnrollments: (deviceId: string) =>
      toPage({
        data: this.faults.read(
          'listEnrollments',
          () => [authorizedEnrollment(deviceId)],
          z.array(enrollmentSchema),
        ),
      }),
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

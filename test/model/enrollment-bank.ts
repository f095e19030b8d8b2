import { z } from 'zod';
import {
  enrollmentSchema,
  type EnrollmentStatus,
  type KnownEnrollment,
} from '../../src/bank/schemas/enrollment.js';
import type { CreateEnrollmentRequest } from '../../src/bank/schemas/enrollment-request.js';
import type { RegisterCredentialRequest } from '../../src/bank/schemas/fido.js';
import { toPage } from '../../src/bank/pagination.js';
import { conflict, FaultQueue, invalidAssertion } from './faults.js';
import { RecordHistory, versionTime } from './record-history.js';
import { validAssertion } from './payment-bank.js';

/** Where the bank itself may take an enrollment from each status (registration is the customer's move). */
export const enrollmentMoves: Record<EnrollmentStatus, EnrollmentStatus[]> = {
  awaiting_account_holder_validation: ['awaiting_enrollment', 'rejected', 'inactive'],
  awaiting_enrollment: ['rejected', 'inactive'],
  authorized: ['revoked', 'inactive'],
  rejected: [],
  revoked: [],
  inactive: [],
};

export const finalEnrollment = (status: EnrollmentStatus | undefined) =>
  status === 'rejected' || status === 'revoked' || status === 'inactive';

const account = {
  branch: '0001',
  digit: '7',
  ispb: '12345678',
  name: 'Model Customer',
  number: '123456',
  tax_number: '12345678909',
  type: 'checking',
};

/**
 * One enrollment as the bank holds it: the true record, the lagging view its list answers, and the calls the
 * workflow made. A repeated create answers the first enrollment (its external id); a registration outside
 * awaiting_enrollment is refused with 409.
 */
export class EnrollmentBank {
  readonly record = new RecordHistory<KnownEnrollment>();
  readonly faults = new FaultQueue();
  readonly id: string;

  constructor(readonly index: number) {
    this.id = `10000000-0000-4000-8000-${String(index).padStart(12, '0')}`;
  }

  get status(): EnrollmentStatus | undefined {
    return this.record.latest?.status;
  }

  change(status: EnrollmentStatus, lag = 0): KnownEnrollment {
    const current = this.record.latest;
    if (!current) throw new Error('the enrollment does not exist yet');
    const next: KnownEnrollment = {
      ...current,
      status,
      updated_at: versionTime(this.record.versions.length),
      account_info: status === 'awaiting_account_holder_validation' ? null : account,
    };
    this.record.push(next, lag);
    return next;
  }

  readonly activities = {
    createEnrollment: (request: CreateEnrollmentRequest) =>
      this.faults.call(
        'createEnrollment',
        () => {
          if (!this.record.latest) this.record.push(this.initialRecord(request), 0);
          return this.record.show(this.record.latest as KnownEnrollment);
        },
        true,
      ),
    listEnrollments: () => {
      const listed = this.faults.read(
        'listEnrollments',
        () => {
          const record = this.record.current();
          return record ? [record] : [];
        },
        z.array(enrollmentSchema),
      );
      for (const record of listed) this.record.show(record);
      return toPage({ data: listed });
    },
    getRegistrationOptions: () =>
      this.faults.call('getRegistrationOptions', () => ({ public_key_encoded: 'model-options' })),
    registerCredential: (request: RegisterCredentialRequest) =>
      this.faults.call('registerCredential', () => this.register(request), true),
  };

  private register(request: RegisterCredentialRequest): KnownEnrollment {
    if (this.status !== 'awaiting_enrollment')
      throw conflict('registerCredential', `the enrollment is ${this.status ?? 'unknown'}`);
    if ((request.fido_assertion as { id?: string }).id !== validAssertion)
      throw invalidAssertion('registerCredential');
    return this.record.show(this.change('authorized'));
  }

  private initialRecord(request: CreateEnrollmentRequest): KnownEnrollment {
    return {
      id: this.id,
      device_id: request.device_id,
      participant_id: request.participant_id,
      external_id: request.external_id ?? null,
      status: 'awaiting_account_holder_validation',
      redirect_url: `https://participant.example/authorize/${this.id}`,
      expiration_datetime: null,
      inserted_at: versionTime(0),
      updated_at: versionTime(0),
      account_info: null,
    };
  }
}

import type { BiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import type { Boleto } from '../../src/bank/schemas/boleto.js';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { EnrollmentRecord } from './biometrics/state.js';
import { RecordVersions } from './record-versions.js';

/**
 * The bank's read side, `get_lag_ms` behind its writes: webhooks go out at once, while GETs and lists of
 * enrollments, payments and collection attempts (and the boleto a cancel answers with) show each record as it
 * was that long ago. A record created more recently than that is not found yet.
 */
export class LaggedReads {
  readonly enrollments = new RecordVersions<EnrollmentRecord>();
  readonly payments = new RecordVersions<BiometricPayment>();
  readonly attempts = new RecordVersions<CollectionAttempt>();
  readonly boletos = new RecordVersions<Boleto>();

  constructor(private readonly lagMs: () => number) {}

  /** Whether reads may show older contents than the records hold now. */
  get lagging(): boolean {
    return this.lagMs() > 0;
  }

  enrollment(record: EnrollmentRecord): EnrollmentRecord | undefined {
    return this.enrollments.asOf(record.id, record, this.lagMs());
  }

  payment(record: BiometricPayment): BiometricPayment | undefined {
    return this.payments.asOf(record.id, record, this.lagMs());
  }

  attempt(record: CollectionAttempt): CollectionAttempt | undefined {
    return this.attempts.asOf(record.id, record, this.lagMs());
  }

  boleto(record: Boleto): Boleto | undefined {
    return this.boletos.asOf(record.id, record, this.lagMs());
  }

  clear(): void {
    this.enrollments.clear();
    this.payments.clear();
    this.attempts.clear();
    this.boletos.clear();
  }
}

import { randomUUID } from 'node:crypto';
import type { EnrollmentStatus } from '../../../src/bank/schemas/enrollment.js';
import type { BiometricPaymentStatus } from '../../../src/bank/schemas/biometric-payment.js';
import type { CollectingDocument } from '../../../src/bank/schemas/collecting-document.js';
import { webhookCategories } from '../../../src/bank/schemas/webhook.js';
import type { LaggedReads } from '../lagged-reads.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import { endToEndId } from './pix.js';
import type { BiometricsState, EnrollmentEntry, EnrollmentRecord, PaymentEntry } from './state.js';

export type PaymentOutcome = 'settled' | 'failed' | 'rejected';

/** Magic amounts: cents ending in 91 make the bank fail the payment, in 92 the participant reject it. */
function outcomeForAmount(amountCents: number): PaymentOutcome {
  const cents = amountCents % 100;
  if (cents === 91) return 'failed';
  if (cents === 92) return 'rejected';
  return 'settled';
}

/** The statuses each move of an enrollment may start from. */
export const enrollmentMoves = {
  bankAuthorization: ['awaiting_account_holder_validation'],
  registration: ['awaiting_enrollment'],
  reject: ['awaiting_account_holder_validation', 'awaiting_enrollment'],
  revoke: ['authorized'],
  expire: ['awaiting_account_holder_validation', 'awaiting_enrollment', 'authorized'],
} satisfies Record<string, EnrollmentStatus[]>;

export type EnrollmentMove = keyof typeof enrollmentMoves;

export function canMoveEnrollment(entry: EnrollmentEntry, move: EnrollmentMove): boolean {
  return (enrollmentMoves[move] as readonly EnrollmentStatus[]).includes(entry.record.status);
}

/** Payments still waiting for the customer's consent. */
export const awaitingConsentStatuses: readonly BiometricPaymentStatus[] = ['created', 'awaiting_consent'];

const snapshot = <T>(record: T): Record<string, unknown> =>
  structuredClone(record) as Record<string, unknown>;

/**
 * Every status change of an enrollment or payment goes through here: it stamps the record, keeps the bank's
 * clocks (enrollment step windows, consent window, settlement) and publishes the webhook the change causes.
 */
export class BiometricsLifecycle {
  constructor(
    private readonly state: BiometricsState,
    private readonly webhooks: WebhookDispatcher,
    private readonly reads: LaggedReads,
  ) {}

  /** Starts the clock of a new enrollment; creation itself is announced by the create response only. */
  openEnrollment(entry: EnrollmentEntry): void {
    this.state.addEnrollment(entry);
    this.awaitStep(entry, new Date());
    this.reads.enrollments.created(entry.record.id, entry.record);
  }

  moveEnrollment(
    entry: EnrollmentEntry,
    status: EnrollmentStatus,
    changes: Partial<EnrollmentRecord> = {},
  ): void {
    const now = new Date();
    Object.assign(entry.record, changes, { status, updated_at: now.toISOString() });
    this.awaitStep(entry, now);
    this.reads.enrollments.changed(entry.record.id, entry.record);
    this.webhooks.publish({
      category: webhookCategories.enrollment,
      type: status,
      ref_id: entry.record.id,
      data: snapshot(entry.record),
    });
  }

  /** Pending steps have a deadline after which the enrollment becomes inactive; other statuses have none. */
  private awaitStep(entry: EnrollmentEntry, now: Date): void {
    const { settings } = this.state;
    const windowMs =
      entry.record.status === 'awaiting_account_holder_validation'
        ? settings.accountHolderValidationWindowMs
        : entry.record.status === 'awaiting_enrollment'
          ? settings.registrationWindowMs
          : null;
    if (windowMs === null) {
      entry.expiresAt = null;
      entry.record.expiration_datetime = null;
      return;
    }
    const deadline = now.getTime() + windowMs;
    entry.expiresAt = deadline;
    entry.record.expiration_datetime = new Date(deadline).toISOString();
    this.state.schedule(windowMs, () => {
      if (entry.expiresAt === deadline && canMoveEnrollment(entry, 'expire')) {
        this.moveEnrollment(entry, 'inactive');
      }
    });
  }

  /** Records a new payment, announces it and starts its consent window. */
  openPayment(entry: PaymentEntry): void {
    this.state.addPayment(entry);
    this.reads.payments.created(entry.record.id, entry.record);
    this.publishPayment(entry);
    this.state.scheduleAt(entry.consentDeadline, () => this.expireConsentIfDue(entry));
  }

  /** Rejects a payment whose consent window has closed; answers whether it did. */
  expireConsentIfDue(entry: PaymentEntry): boolean {
    if (!awaitingConsentStatuses.includes(entry.record.status)) return false;
    if (new Date().getTime() < entry.consentDeadline) return false;
    entry.consentExpired = true;
    this.movePayment(entry, 'rejected');
    return true;
  }

  movePayment(
    entry: PaymentEntry,
    status: BiometricPaymentStatus,
    changes: Partial<PaymentEntry['record']> = {},
  ) {
    Object.assign(entry.record, changes, { status, updated_at: new Date().toISOString() });
    this.reads.payments.changed(entry.record.id, entry.record);
    this.publishPayment(entry);
  }

  /** A valid assertion: the Pix is initiated (it gets its end-to-end id) and the bank processes it. */
  acceptAuthorization(entry: PaymentEntry, participantIspb: string): void {
    entry.challenge = null;
    this.movePayment(entry, 'awaiting_payment', { end_to_end_id: endToEndId(participantIspb, new Date()) });
    const delayMs = this.state.settings.settlementDelayMs;
    if (delayMs === null) return;
    this.state.schedule(delayMs, () => {
      if (entry.record.status === 'awaiting_payment')
        this.finishPayment(entry, outcomeForAmount(entry.record.amount.amount));
    });
  }

  /** The bank's final answer; a settled payment is also confirmed by a Pix cash-in event. */
  finishPayment(entry: PaymentEntry, outcome: PaymentOutcome): void {
    const now = new Date();
    const transactionDate = outcome === 'settled' ? now.toISOString().slice(0, 10) : null;
    this.movePayment(entry, outcome, { transaction_date: transactionDate });
    if (outcome !== 'settled' || entry.record.end_to_end_id === null) return;
    const cashIn: CollectingDocument = {
      id: randomUUID(),
      end_to_end_id: entry.record.end_to_end_id,
      status: 'settled',
      amount: { ...entry.record.amount },
      transaction_date: transactionDate,
      virtual_account_id: entry.record.virtual_account_id,
      entity_id: entry.record.entity_id ?? null,
      description: entry.record.description,
      inserted_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    this.webhooks.publish({
      category: webhookCategories.collectingDocument,
      type: 'settled',
      ref_id: cashIn.id,
      data: snapshot(cashIn),
    });
  }

  private publishPayment(entry: PaymentEntry): void {
    this.webhooks.publish({
      category: webhookCategories.initiationDocument,
      type: entry.record.status,
      ref_id: entry.record.id,
      data: snapshot(entry.record),
      context_type: 'enrollment',
      context_id: entry.enrollmentId,
    });
  }
}

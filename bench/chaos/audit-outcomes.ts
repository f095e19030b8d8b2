import type { BiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import type { Enrollment } from '../../src/bank/schemas/enrollment.js';
import type { EnrollmentResult } from '../../src/contract/enrollment.js';
import type { PaymentResult } from '../../src/contract/payment.js';
import { searchAttributes } from '../../src/contract/temporal.js';
import type { BankRecords } from './audit-bank.js';
import type { RunHistory } from './histories.js';
import type { Violations } from './violations.js';

export const confirmedOutcomeCheck = 'no workflow ended with a status the bank’s GET did not confirm';
export const abandonedPaymentCheck =
  'no payment exists at the bank for a journey whose workflow ended before the bank created it';

const finalPaymentStatuses = new Set(['settled', 'failed', 'rejected']);

/**
 * The bank's enrollment status each outcome stands for; `blocked` is bankflow's own verdict, not a bank
 * status.
 */
export const enrollmentStatusOf: Partial<Record<EnrollmentResult['outcome'], Enrollment['status']>> = {
  authorized: 'authorized',
  rejected: 'rejected',
  revoked: 'revoked',
  expired: 'inactive',
};

const completed = (run: RunHistory, type: string) =>
  run.info.type === type && run.info.status.name === 'COMPLETED' && run.result !== undefined;

function auditPayment(
  run: RunHistory,
  result: PaymentResult,
  byId: Map<string, BiometricPayment>,
  violations: Violations,
): void {
  if (!finalPaymentStatuses.has(result.outcome)) return;
  const subject = `${run.info.workflowId} (payment ${result.paymentId ?? 'never created'})`;
  const payment = result.paymentId ? byId.get(result.paymentId) : undefined;
  if (!payment) {
    violations.add(confirmedOutcomeCheck, subject, `ended ${result.outcome}; the bank holds no such payment`);
    return;
  }
  if (result.outcome !== payment.status || result.status !== payment.status) {
    violations.add(
      confirmedOutcomeCheck,
      subject,
      `ended ${result.outcome} (status ${result.status}); the bank says ${payment.status}`,
    );
  }
  for (const [field, ended, bank] of [
    ['end_to_end_id', result.endToEndId, payment.end_to_end_id],
    ['transaction_date', result.transactionDate, payment.transaction_date],
  ] as const) {
    if (ended !== bank) {
      violations.add(confirmedOutcomeCheck, subject, `ended with ${field} ${ended}; the bank says ${bank}`);
    }
  }
}

function auditEnrollment(
  run: RunHistory,
  result: EnrollmentResult,
  byId: Map<string, Enrollment>,
  violations: Violations,
): void {
  const expected = enrollmentStatusOf[result.outcome];
  if (!expected) return;
  const id = result.enrollment?.id;
  const subject = `${run.info.workflowId} (enrollment ${id ?? 'unknown'})`;
  const enrollment = id ? byId.get(id) : undefined;
  if (enrollment?.status !== expected) {
    violations.add(
      confirmedOutcomeCheck,
      subject,
      `ended ${result.outcome}; the bank says ${enrollment?.status ?? 'no such enrollment'}`,
    );
  }
}

/**
 * A payment workflow that failed without ever holding a payment id (the bank unreachable within the start's
 * window, the bank refusing it, an enrollment not authorized) told its merchant nothing was created: the bank
 * holds no payment under its external id, not even one a late retry created after the journey was abandoned.
 */
function auditAbandonedPayment(run: RunHistory, bank: BankRecords, violations: Violations): void {
  const { info } = run;
  if (info.type !== 'biometricPaymentWorkflow' || info.status.name !== 'FAILED') return;
  if (info.typedSearchAttributes.get(searchAttributes.paymentId)) return;
  const externalId = info.typedSearchAttributes.get(searchAttributes.externalId);
  const created = bank.payments.filter((payment) => externalId && payment.external_id === externalId);
  for (const payment of created) {
    violations.add(
      abandonedPaymentCheck,
      `${info.workflowId} (payment ${payment.id})`,
      `the workflow failed before any payment was created; the bank holds one, ${payment.status}, inserted ${payment.inserted_at}`,
    );
  }
}

/**
 * Every closed payment and enrollment workflow ended on what the bank's own record says: a final payment
 * outcome is the bank's status, with the bank's end-to-end id and transaction date, and an enrollment outcome
 * is the bank's status; a payment workflow that failed before the bank created its payment leaves none there.
 * `bank` is read from the sandbox's own view, never behind however the bank's reads lag.
 */
export function auditConfirmedOutcomes(runs: RunHistory[], bank: BankRecords, violations: Violations): void {
  const payments = new Map(bank.payments.map((payment) => [payment.id, payment]));
  const enrollments = new Map(bank.enrollments.map((enrollment) => [enrollment.id, enrollment]));
  for (const run of runs) {
    auditAbandonedPayment(run, bank, violations);
    if (completed(run, 'biometricPaymentWorkflow')) {
      auditPayment(run, run.result as PaymentResult, payments, violations);
    } else if (completed(run, 'enrollmentWorkflow')) {
      auditEnrollment(run, run.result as EnrollmentResult, enrollments, violations);
    }
  }
}

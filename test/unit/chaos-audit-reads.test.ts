import type { WorkflowExecutionInfo } from '@temporalio/client';
import { auditReadEndings, readEndedCheck, unknownTakenCheck } from '../../bench/chaos/audit-reads.js';
import { emptyRunHistory, type RunHistory } from '../../bench/chaos/histories.js';
import { Violations } from '../../bench/chaos/violations.js';

function run(workflowId: string, type: string, status: string, extra: Partial<RunHistory> = {}): RunHistory {
  const info = { workflowId, type, status: { name: status } } as unknown as WorkflowExecutionInfo;
  return { ...emptyRunHistory(info), ...extra };
}

const settled = { outcome: 'settled', status: 'settled', endToEndId: 'E1', reason: 'settled', evidence: [] };

function audit(runs: RunHistory[]): string[] {
  const violations = new Violations();
  auditReadEndings(runs, violations);
  return violations.list.map(({ check, subject, detail }) => `${check} | ${subject} | ${detail}`);
}

describe('chaos audit: no journey ended by a read', () => {
  it('passes journeys that followed the bank through refused, failing and strange reads to its own status', () => {
    expect(
      audit([
        // Read in an unknown status along the way, ended on the status a later read showed.
        run('payment:1', 'biometricPaymentWorkflow', 'COMPLETED', {
          result: settled,
          answeredStatuses: ['created', 'awaiting_consent', 'under_review', 'awaiting_payment', 'settled'],
        }),
        // The status that ended it came in the run before its continue-as-new.
        run('enrollment:1', 'enrollmentWorkflow', 'CONTINUED_AS_NEW', {
          answeredStatuses: ['awaiting_enrollment', 'authorized', 'revoked'],
        }),
        run('enrollment:1', 'enrollmentWorkflow', 'COMPLETED', {
          result: { outcome: 'revoked', reason: 'revoked at the bank', enrollment: { status: 'revoked' } },
          answeredStatuses: ['on_hold'],
        }),
        // Expired on its deadline: no status of the bank's to have come from a read.
        run('payment:2', 'biometricPaymentWorkflow', 'COMPLETED', {
          result: { ...settled, outcome: 'expired', status: 'awaiting_consent' },
        }),
        // Failures that are not a read's: a start the bank could not serve, a write refused.
        run('payment:3', 'biometricPaymentWorkflow', 'FAILED', {
          failure: [{ type: 'BankUnreachable', message: 'the bank could not be reached' }],
        }),
        run('payment:6', 'biometricPaymentWorkflow', 'FAILED', {
          failure: [{ type: 'EnrollmentNotAuthorized', message: 'enrollment e1 is revoked, not authorized' }],
          answeredStatuses: ['under_review', 'revoked'],
        }),
        run('boleto-cancel:1', 'cancelBoletoWorkflow', 'FAILED', {
          failure: [
            { activityType: 'cancelBoleto', message: 'Activity task failed' },
            { type: 'BankNotFound', message: 'not found (HTTP 404)' },
          ],
        }),
      ]),
    ).toEqual([]);
  });

  it('reports a run a failed read ended, naming the read and its cause', () => {
    expect(
      audit([
        run('payment:4', 'biometricPaymentWorkflow', 'FAILED', {
          failure: [
            { type: 'PaymentFailed', message: 'the payment could not be followed' },
            { activityType: 'getBiometricPayment', message: 'Activity task failed' },
            { type: 'BankUnauthorized', message: 'the bank refused the credentials (HTTP 401 UNAUTHORIZED)' },
          ],
        }),
      ]),
    ).toEqual([
      `${readEndedCheck} | payment:4 (biometricPaymentWorkflow) | failed because its read getBiometricPayment failed ` +
        '(BankUnauthorized: the bank refused the credentials (HTTP 401 UNAUTHORIZED))',
    ]);
  });

  it('reports a run that failed right after the bank answered it a status the spec does not list', () => {
    expect(
      audit([
        run('payment:7', 'biometricPaymentWorkflow', 'FAILED', {
          failure: [
            { type: 'EnrollmentNotAuthorized', message: 'enrollment e1 is under_review, not authorized' },
          ],
          answeredStatuses: ['authorized', 'under_review'],
        }),
      ]),
    ).toEqual([
      `${readEndedCheck} | payment:7 (biometricPaymentWorkflow) | failed (EnrollmentNotAuthorized: enrollment e1 is ` +
        "under_review, not authorized) after the bank's last answer to it carried under_review, a status the spec " +
        'does not list',
    ]);
  });

  it('reports a journey that ended on an unknown status, or on a known one no answer of the bank carried', () => {
    expect(
      audit([
        run('payment:5', 'biometricPaymentWorkflow', 'COMPLETED', {
          result: settled,
          answeredStatuses: ['created', 'awaiting_payment', 'under_review'],
        }),
        run('enrollment:2', 'enrollmentWorkflow', 'COMPLETED', {
          result: { outcome: 'authorized', reason: 'authorized', enrollment: { status: 'under_review' } },
          answeredStatuses: ['awaiting_enrollment', 'under_review'],
        }),
      ]),
    ).toEqual([
      `${unknownTakenCheck} | payment:5 (biometricPaymentWorkflow) | ended on settled, which no answer of the bank ` +
        'to this journey carried; it was answered under_review',
      `${unknownTakenCheck} | enrollment:2 (enrollmentWorkflow) | ended on under_review, a status the spec does not list`,
    ]);
  });
});

import type { WorkflowExecutionInfo } from '@temporalio/client';
import type { KnownBiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import type { KnownEnrollment } from '../../src/bank/schemas/enrollment.js';
import { TypedSearchAttributes } from '@temporalio/common';
import type { BankRecords } from '../../bench/chaos/audit-bank.js';
import { auditBuilds, promotionGraceMs } from '../../bench/chaos/audit-builds.js';
import type { DeployRecord } from '../../bench/chaos/deploy.js';
import { buildBMemoKey } from '../../devkit/versioning/build-b-payment.js';
import { auditConfirmedOutcomes, confirmedOutcomeCheck } from '../../bench/chaos/audit-outcomes.js';
import { auditWorkflows } from '../../bench/chaos/audit-temporal.js';
import type { RunHistory, TaskBuild, WorkflowTaskFailure } from '../../bench/chaos/histories.js';
import { Violations } from '../../bench/chaos/violations.js';
import { searchAttributes } from '../../src/contract/temporal.js';

function run(
  type: string,
  status: string,
  workflowTaskFailures: (string | WorkflowTaskFailure)[] = [],
  phase = 'authorized',
  result?: unknown,
): RunHistory {
  const info = {
    workflowId: `${type}-1`,
    type,
    status: { name: status },
    typedSearchAttributes: new TypedSearchAttributes([{ key: searchAttributes.status, value: phase }]),
  } as unknown as WorkflowExecutionInfo;
  return {
    info,
    webhookKeys: [],
    refusedSignals: 0,
    workflowTaskFailures: workflowTaskFailures.map((failure) =>
      typeof failure === 'string' ? { cause: failure, message: '' } : failure,
    ),
    workflowTaskTimeouts: 0,
    retriedActivities: 0,
    updatesAccepted: 0,
    updatesSharingTask: 0,
    result,
    tasks: [],
    startedAt: 0,
    startedByClient: true,
    upsertedMemoKeys: [],
    answeredStatuses: [],
  };
}

describe('chaos audit of the workflow runs', () => {
  it('finds nothing wrong with finished payments, authorized enrollments and retried races', () => {
    const violations = new Violations();
    auditWorkflows(
      [
        run('biometricPaymentWorkflow', 'COMPLETED', ['UNHANDLED_COMMAND']),
        run('enrollmentWorkflow', 'RUNNING'),
        run('syncRecurrenceAttempts', 'CONTINUED_AS_NEW'),
      ],
      violations,
    );
    expect(violations.list).toEqual([]);
  });

  it('reports a nondeterminism error even when a retry of the task got past it', () => {
    const violations = new Violations();
    auditWorkflows(
      [run('enrollmentWorkflow', 'RUNNING', ['UNHANDLED_COMMAND', 'NON_DETERMINISTIC_ERROR'])],
      violations,
    );
    expect(violations.list).toEqual([
      {
        check: 'no nondeterminism error',
        subject: 'enrollmentWorkflow-1 (enrollmentWorkflow)',
        detail: '1 workflow task(s) failed replaying the history',
      },
    ]);
  });

  it('reports a workflow task that failed in the worker, even when a retry got past it', () => {
    const violations = new Violations();
    const undecodable = {
      cause: 'WORKFLOW_WORKER_UNHANDLED_FAILURE',
      message: 'Unsupported state or unable to authenticate data',
    };
    auditWorkflows(
      [
        // A payload that did not decrypt once stalled a payment's every task; here one got past it.
        run('biometricPaymentWorkflow', 'COMPLETED', ['UNHANDLED_COMMAND', undecodable, undecodable]),
        // The server refusing a completion that raced a new event is not a failed task.
        run('enrollmentWorkflow', 'RUNNING', ['UNHANDLED_COMMAND', 'UNHANDLED_COMMAND']),
      ],
      violations,
    );
    expect(violations.list).toEqual([
      {
        check: 'no workflow has a failed workflow task',
        subject: 'biometricPaymentWorkflow-1 (biometricPaymentWorkflow)',
        detail:
          '2 workflow task(s) failed, the first WORKFLOW_WORKER_UNHANDLED_FAILURE: Unsupported state or unable to authenticate data',
      },
    ]);
  });

  it('reports running payments, enrollments stuck before authorization and failed runs', () => {
    const violations = new Violations();
    auditWorkflows(
      [
        run('biometricPaymentWorkflow', 'RUNNING'),
        run('enrollmentWorkflow', 'RUNNING', [], 'awaiting_enrollment'),
        run('recurrenceWorkflow', 'TERMINATED'),
      ],
      violations,
    );
    expect(violations.list.map(({ check, detail }) => `${check}: ${detail}`)).toEqual([
      'no workflow is stuck: still running after every journey ended',
      'no workflow is stuck: running enrollment in phase awaiting_enrollment',
      'no workflow ends in failure: closed TERMINATED',
    ]);
  });
});

describe('chaos audit: no workflow ended with a status the bank’s GET did not confirm', () => {
  const payment = (id: string, status: string, endToEndId: string | null = null) =>
    ({
      id,
      status,
      end_to_end_id: endToEndId,
      transaction_date: status === 'settled' ? '2025-06-01' : null,
    }) as KnownBiometricPayment;
  const enrollment = (id: string, status: string) => ({ id, status }) as KnownEnrollment;
  const bank = (payments: KnownBiometricPayment[], enrollments: KnownEnrollment[] = []): BankRecords => ({
    payments,
    enrollments,
    authorizeCalls: [],
    attempts: [],
    recurrences: [],
  });
  const paid = (
    paymentId: string,
    outcome: string,
    endToEndId: string | null,
    transactionDate: string | null,
  ) =>
    run('biometricPaymentWorkflow', 'COMPLETED', [], 'settled', {
      outcome,
      status: outcome,
      paymentId,
      endToEndId,
      transactionDate,
      reason: '',
      evidence: [],
    });
  const enrolled = (enrollmentId: string, outcome: string) =>
    run('enrollmentWorkflow', 'COMPLETED', [], outcome, {
      outcome,
      reason: '',
      enrollment: { id: enrollmentId },
    });

  function audit(runs: RunHistory[], records: BankRecords): string[] {
    const violations = new Violations();
    auditConfirmedOutcomes(runs, records, violations);
    expect(violations.list.every((violation) => violation.check === confirmedOutcomeCheck)).toBe(true);
    return violations.list.map((violation) => violation.detail);
  }

  it('accepts outcomes, end-to-end ids and dates that are the bank’s own', () => {
    const records = bank(
      [payment('p1', 'settled', 'E1'), payment('p2', 'rejected'), payment('p3', 'awaiting_consent')],
      [enrollment('e1', 'inactive'), enrollment('e2', 'rejected')],
    );
    const runs = [
      paid('p1', 'settled', 'E1', '2025-06-01'),
      paid('p2', 'rejected', null, null),
      // Gave up following: not a final answer, so nothing to confirm.
      paid('p3', 'expired', null, null),
      enrolled('e1', 'expired'),
      enrolled('e2', 'rejected'),
      // Still running: only closed workflows answered anything.
      run('biometricPaymentWorkflow', 'RUNNING'),
    ];
    expect(audit(runs, records)).toEqual([]);
  });

  it('reports a payment that ended settled while the bank still awaits consent', () => {
    expect(
      audit([paid('p1', 'settled', 'E1', '2025-06-01')], bank([payment('p1', 'awaiting_consent')])),
    ).toEqual([
      'ended settled (status settled); the bank says awaiting_consent',
      'ended with end_to_end_id E1; the bank says null',
      'ended with transaction_date 2025-06-01; the bank says null',
    ]);
  });

  it('reports fields the bank did not confirm even when the status matches, and payments the bank never held', () => {
    const records = bank([payment('p1', 'settled', 'E-bank')]);
    expect(
      audit([paid('p1', 'settled', 'E-webhook', '2025-06-01'), paid('p9', 'failed', null, null)], records),
    ).toEqual([
      'ended with end_to_end_id E-webhook; the bank says E-bank',
      'ended failed; the bank holds no such payment',
    ]);
  });

  it('reports an enrollment outcome the bank’s record does not show', () => {
    const records = bank([], [enrollment('e1', 'awaiting_enrollment'), enrollment('e2', 'authorized')]);
    expect(
      audit([enrolled('e1', 'revoked'), enrolled('e2', 'blocked'), enrolled('e3', 'rejected')], records),
    ).toEqual([
      'ended revoked; the bank says awaiting_enrollment',
      'ended rejected; the bank says no such enrollment',
    ]);
  });
});

describe('chaos audit of the mid-run deploy: pinned runs stay on their build, new runs and long-lived workflows go to the new one', () => {
  const deploy: DeployRecord = {
    slot: 0,
    initialBuildId: 'aaaaaaaaaaaa',
    newBuildId: 'bbbbbbbbbbbb',
    promotedAt: 1_000_000,
    promotedAtMs: 20_000,
  };
  const A = deploy.initialBuildId;
  const B = deploy.newBuildId;
  const long = promotionGraceMs + 1_000;
  let runs = 0;
  /**
   * A run of its own workflow unless `workflowId` names one: every task pinned unless a task says otherwise.
   */
  function versioned(
    type: string,
    startedAt: number,
    tasks: [buildId: string, at: number, behavior?: TaskBuild['behavior']][],
    extra: Partial<RunHistory> & { workflowId?: string } = {},
  ): RunHistory {
    const { workflowId = `${type}-${++runs}`, ...rest } = extra;
    const base = run(type, 'COMPLETED');
    return {
      ...base,
      info: { ...base.info, workflowId },
      startedAt,
      tasks: tasks.map(([buildId, at, behavior = 'pinned']) => ({ buildId, behavior, at })),
      ...rest,
    };
  }
  function audit(runs: RunHistory[]) {
    const violations = new Violations();
    const accounting = auditBuilds(runs, deploy, violations);
    return { accounting, found: violations.list.map(({ check, detail }) => `${check}: ${detail}`) };
  }
  const before = deploy.promotedAt - long;
  const after = deploy.promotedAt + long;

  it('accepts a payment pinned to each build, the new one with its memo upsert, and an enrollment that moved', () => {
    const { accounting, found } = audit([
      versioned('biometricPaymentWorkflow', before, [
        [A, before],
        [A, after],
      ]),
      versioned('biometricPaymentWorkflow', after, [[B, after]], { upsertedMemoKeys: [buildBMemoKey] }),
      // An enrollment's run on A continues as new at the deploy: its next run's first task (auto-upgrade) on
      // B.
      versioned('enrollmentWorkflow', before, [[A, before]], { workflowId: 'enrollment:1' }),
      versioned(
        'enrollmentWorkflow',
        after,
        [
          [B, after, 'auto-upgrade'],
          [B, after],
        ],
        { workflowId: 'enrollment:1', startedByClient: false },
      ),
      // A child of a pinned parent stays on its parent's build, whenever it starts.
      versioned('syncAttemptsSlice', after, [[A, after]], { startedByClient: false }),
      // Started before the promotion, its first task waited for a worker until after: the new build takes it.
      versioned('cancelBoletoWorkflow', before, [[B, after]]),
    ]);
    expect(found).toEqual([]);
    expect(accounting).toEqual({
      builds: [
        { buildId: A, role: 'initial', runs: 3, pinned: 3, autoUpgrade: 0 },
        { buildId: B, role: 'new', runs: 3, pinned: 2, autoUpgrade: 1 },
      ],
      moved: 1,
      promotedAtMs: 20_000,
    });
  });

  it('reports a pinned run that moved, runs on the wrong build around the promotion, and a build’s decision on the other', () => {
    const { found } = audit([
      versioned('biometricPaymentWorkflow', before, [
        [A, before],
        [B, after],
      ]),
      versioned('cancelBoletoWorkflow', after, [[A, after]]),
      versioned('cancelBoletoWorkflow', before, [[B, before]]),
      // A continued run that took its first task on the old build well after the promotion.
      versioned('enrollmentWorkflow', after, [[A, after, 'auto-upgrade']], { startedByClient: false }),
      versioned('biometricPaymentWorkflow', after, [[B, after]]),
      versioned('unmatchedWebhookWorkflow', after, [['', after]]),
    ]);
    expect(found).toEqual([
      'every pinned run finished on the build that started it: tasks on aaaaaaaa then bbbbbbbb',
      'a run started after the deploy starts on the new build: started 16.0 s after the promotion, on aaaaaaaa',
      'no run starts on the new build before it is current: first task 16.0 s before the promotion, on the new build',
      'an auto-upgrade run moves to the new build: 1 task(s) after the promotion on aaaaaaaa',
      "a payment takes the decisions of the build it runs on: ran on bbbbbbbb without the new build's memo upsert",
      'every workflow task ran on a versioned worker: a task with no build id',
      'a run started after the deploy starts on the new build: started 16.0 s after the promotion, on an unversioned worker',
    ]);
  });
});

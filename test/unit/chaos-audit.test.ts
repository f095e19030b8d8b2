import type { WorkflowExecutionInfo } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { auditWorkflows } from '../../bench/chaos/audit-temporal.js';
import type { RunHistory } from '../../bench/chaos/histories.js';
import { Violations } from '../../bench/chaos/violations.js';
import { searchAttributes } from '../../src/workflows/search-attributes.js';

function run(
  type: string,
  status: string,
  workflowTaskFailures: string[] = [],
  phase = 'authorized',
): RunHistory {
  const info = {
    workflowId: `${type}-1`,
    type,
    status: { name: status },
    typedSearchAttributes: new TypedSearchAttributes([{ key: searchAttributes.status, value: phase }]),
  } as unknown as WorkflowExecutionInfo;
  return { info, webhookKeys: [], workflowTaskFailures, workflowTaskTimeouts: 0, retriedActivities: 0 };
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

import { startEnrollment } from '../../src/starter/index.js';
import type { enrollmentWorkflow } from '../../src/workflows/enrollment/workflow.js';
import { enrollmentTimings } from '../../src/contract/enrollment.js';
import { control, enroll, keyOf, newCustomer } from '../helpers/journey.js';
import { runsOf } from '../helpers/runs.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const minute = 60_000;
const day = 24 * 60 * minute;

describe('enrollment waits of minutes and months, on a time-skipping server', () => {
  let stack: TimeSkippingStack;

  beforeAll(async () => {
    // The bank's own step windows run in real time and never close within a test: every move is the test's.
    stack = await startTimeSkippingStack({ receiver: true });
  });
  afterAll(() => stack?.stop());

  async function lifetimeOf(workflowId: string) {
    const description = await stack.client.workflow.getHandle(workflowId).describe();
    return (description.closeTime?.getTime() ?? NaN) - description.startTime.getTime();
  }

  it('ends expired when the account holder does not authorize within the 15-minute window', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/back',
    });
    const handle = stack.client.workflow.getHandle<typeof enrollmentWorkflow>(started.workflowId);
    expect(await handle.result()).toMatchObject({
      outcome: 'expired',
      reason: 'the account holder did not authorize at the bank in time',
    });
    const lifetimeMs = await lifetimeOf(started.workflowId);
    expect(lifetimeMs).toBeGreaterThanOrEqual(enrollmentTimings.accountHolderValidationMs);
    expect(lifetimeMs).toBeLessThan(
      enrollmentTimings.accountHolderValidationMs + enrollmentTimings.afterWindowMs + minute,
    );
  });

  it('ends expired when the credential is not registered within the 5-minute window', async () => {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/back',
    });
    await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
      {},
    );
    const handle = stack.client.workflow.getHandle<typeof enrollmentWorkflow>(started.workflowId);
    expect(await handle.result()).toMatchObject({
      outcome: 'expired',
      reason: 'the biometric credential was not registered in time',
    });
    expect(await lifetimeOf(started.workflowId)).toBeLessThan(
      enrollmentTimings.registrationMs + enrollmentTimings.afterWindowMs + 2 * minute,
    );
  });

  it('watches an authorized enrollment for months, continuing as new under the history bound, until revoked', async () => {
    const customer = await newCustomer(stack);
    const { started } = await enroll(stack, customer);
    await stack.skip(120 * day);
    await control(stack, 'POST', `/sandbox/biometrics/enrollments/${started.enrollmentId}/revoke`, {});
    const handle = stack.client.workflow.getHandle<typeof enrollmentWorkflow>(started.workflowId);
    expect(await handle.result()).toMatchObject({ outcome: 'revoked' });

    const runs = await runsOf(stack.client, started.workflowId);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const run of runs) expect(run.events).toBeLessThanOrEqual(enrollmentTimings.historyBound);
    expect(runs.slice(0, -1).every((run) => run.continuedAsNew)).toBe(true);
  });
});

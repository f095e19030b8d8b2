import { enrollmentTimings } from '../../src/contract/enrollment.js';
import { enrollmentWebhookSignal } from '../../src/contract/temporal.js';
import { runLifetime } from '../../src/contract/journeys.js';
import { getEnrollment, startEnrollment } from '../../src/starter/index.js';
import type { enrollmentWorkflow } from '../../src/workflows/enrollment/workflow.js';
import { control, enroll, eventually, keyOf, newCustomer } from '../helpers/journey.js';
import { enrollmentWebhook } from '../helpers/received-webhook.js';
import { runsOf } from '../../devkit/temporal/runs.js';
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

  /**
   * What a run did with the webhooks signalled to it, in order: whether a workflow task took each in
   * (completed after it), and whether the run went to the bank (scheduled an activity) before its next
   * signal.
   */
  async function signalsTaken(workflowId: string, runId: string) {
    const history = await stack.client.workflow.getHandle(workflowId, runId).fetchHistory();
    const signals: { taken: boolean; read: boolean }[] = [];
    for (const event of history.events ?? []) {
      const last = signals.at(-1);
      if (event.workflowExecutionSignaledEventAttributes) signals.push({ taken: false, read: false });
      else if (last && event.workflowTaskCompletedEventAttributes) last.taken = true;
      else if (last && event.activityTaskScheduledEventAttributes) last.read = true;
    }
    return signals;
  }

  it('continues an authorized enrollment as new after 30 days, still taking a webhook delivered again as a duplicate', async () => {
    const customer = await newCustomer(stack);
    const { started, result } = await enroll(stack, customer);
    const handle = stack.client.workflow.getHandle<typeof enrollmentWorkflow>(started.workflowId);
    const firstRun = await handle.describe();
    // A revocation the bank's record does not show: as a new event it sends the workflow to the bank.
    const revokedClaim = enrollmentWebhook({
      ...result.enrollment!,
      status: 'revoked',
      updated_at: new Date(Date.parse(result.enrollment!.updated_at) + minute).toISOString(),
    });
    await handle.signal(enrollmentWebhookSignal, revokedClaim);
    await eventually(
      () => signalsTaken(started.workflowId, firstRun.runId),
      (signals) => signals.at(-1)?.read === true,
    );

    await stack.skip(runLifetime.maxMs + day / 2);
    const runs = await eventually(
      () => runsOf(stack.client, started.workflowId),
      (list) => list.length === 2,
    );
    expect(runs[0]).toMatchObject({ runId: firstRun.runId, continuedAsNew: true });
    const secondRun = await stack.client.workflow.getHandle(started.workflowId, runs[1]!.runId).describe();
    expect(secondRun.status.name).toBe('RUNNING');
    // The first run ended on its lifetime, not on its history bound, which would have ended it sooner.
    const lived = secondRun.startTime.getTime() - firstRun.startTime.getTime();
    expect(lived).toBeGreaterThanOrEqual(runLifetime.maxMs);
    expect(lived).toBeLessThan(runLifetime.maxMs + day / 2);

    // The second run published the journey it carried on, with the first delivery counted.
    const before = await getEnrollment(stack, keyOf(customer));
    await handle.signal(enrollmentWebhookSignal, revokedClaim);
    const signals = await eventually(
      () => signalsTaken(started.workflowId, secondRun.runId),
      (list) => list.length === 1 && list[0]!.taken,
    );
    // A new event's poll is scheduled by the task that takes the signal in; give a slow worker a moment
    // anyway.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await signalsTaken(started.workflowId, secondRun.runId)).toEqual(signals);
    expect(signals).toEqual([{ taken: true, read: false }]);

    // The next run publishes what the second counted: the copy as a duplicate, nothing received, no poll.
    await stack.skip(runLifetime.maxMs);
    const after = await eventually(
      () => getEnrollment(stack, keyOf(customer)),
      (state) => state.duplicateWebhooks > before.duplicateWebhooks,
    );
    expect(after).toMatchObject({
      phase: 'authorized',
      duplicateWebhooks: before.duplicateWebhooks + 1,
      webhooksReceived: before.webhooksReceived,
    });
  });
});

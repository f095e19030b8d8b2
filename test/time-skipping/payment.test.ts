import { randomUUID } from 'node:crypto';
import { authorizePayment, startPayment } from '../../src/starter/index.js';
import type { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { paymentTimings } from '../../src/contract/payment.js';
import { control, world, type Customer } from '../helpers/journey.js';
import { runsOf } from '../../devkit/temporal/runs.js';
import { startBankPlayedStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const minute = 60_000;
const day = 24 * 60 * minute;

describe('payment waits of minutes and days, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  let customer: Customer;
  let enrollmentId: string;

  beforeAll(async () => {
    ({ stack, customer, enrollmentId } = await startBankPlayedStack());
  });
  afterAll(() => stack?.stop());

  const start = (externalId = `pix-${randomUUID()}`) =>
    startPayment(
      { ...stack, client: stack.manualTimeClient },
      {
        externalId,
        enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 1_050,
        description: 'time-skipping test',
        ...world(stack),
      },
    );

  it('closes the 5-minute consent window: a late assertion is refused, and the result is what the bank then reports', async () => {
    const created = await start();
    await stack.skip(paymentTimings.consentWindowMs + minute);
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    await expect(authorizePayment(stack, { externalId: created.externalId, assertion })).rejects.toThrow(
      /the consent window closed at/,
    );
    await control(stack, 'POST', `/sandbox/biometrics/payments/${created.payment.id}/reject`, {});
    const handle = stack.client.workflow.getHandle<typeof biometricPaymentWorkflow>(created.workflowId);
    expect(await handle.result()).toMatchObject({
      outcome: 'rejected',
      status: 'rejected',
      reason:
        'the bank reports the payment rejected before the customer authorized it (the consent window closed)',
    });
  });

  it('ends expired, saying what the bank showed, when the bank still awaits consent an hour after the window', async () => {
    const created = await start();
    const handle = stack.client.workflow.getHandle<typeof biometricPaymentWorkflow>(created.workflowId);
    const result = await handle.result();
    expect(result).toMatchObject({ outcome: 'expired', status: 'awaiting_consent', endToEndId: null });
    expect(result.reason).toMatch(/consent window closed before the customer authorized the payment/);
    const description = await handle.describe();
    const lifetimeMs = (description.closeTime?.getTime() ?? NaN) - description.startTime.getTime();
    expect(lifetimeMs).toBeGreaterThanOrEqual(
      paymentTimings.consentWindowMs + paymentTimings.afterConsentWindowMs,
    );
    expect(lifetimeMs).toBeLessThan(
      paymentTimings.consentWindowMs + paymentTimings.afterConsentWindowMs + 5 * minute,
    );
  });

  it('follows a payment the bank keeps processing for 7 days, continuing as new under the history bound', async () => {
    const created = await start();
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(
      { ...stack, client: stack.manualTimeClient },
      { externalId: created.externalId, assertion },
    );
    const handle = stack.client.workflow.getHandle<typeof biometricPaymentWorkflow>(created.workflowId);
    const result = await handle.result();
    // The bank never finished: the result says the workflow stopped following, with the status the bank
    // showed.
    expect(result).toMatchObject({
      outcome: 'expired',
      status: 'awaiting_payment',
      endToEndId: expect.any(String),
    });
    expect(result.reason).toMatch(
      /did not finish processing the payment in time; its record last showed awaiting_payment/,
    );

    const runs = await runsOf(stack.client, created.workflowId);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const run of runs) expect(run.events).toBeLessThanOrEqual(paymentTimings.historyBound);
    expect(runs.slice(0, -1).every((run) => run.continuedAsNew)).toBe(true);
    // Polls that find nothing new publish nothing: the runs between the first and the last upsert no memo or
    // search attribute.
    expect(runs.slice(1, -1).map((run) => run.upserts)).toEqual(runs.slice(1, -1).map(() => 0));

    const last = await stack.client.workflow.getHandle(created.workflowId).describe();
    const first = await stack.client.workflow.getHandle(created.workflowId, runs[0]?.runId).describe();
    const followedMs = (last.closeTime?.getTime() ?? NaN) - first.startTime.getTime();
    expect(followedMs).toBeGreaterThanOrEqual(paymentTimings.processingMs);
    expect(followedMs).toBeLessThan(paymentTimings.processingMs + day);
  });

  it('ends failed when the bank fails the payment hours into processing, as its GET reports it', async () => {
    const created = await start();
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(stack, { externalId: created.externalId, assertion });
    await stack.skip('3 hours');
    await control(stack, 'POST', `/sandbox/biometrics/payments/${created.payment.id}/fail`, {});
    const handle = stack.client.workflow.getHandle<typeof biometricPaymentWorkflow>(created.workflowId);
    const result = await handle.result();
    expect(result).toMatchObject({
      outcome: 'failed',
      status: 'failed',
      paymentId: created.payment.id,
      reason: 'the bank reports the payment failed',
    });
    const description = await handle.describe();
    expect((description.closeTime?.getTime() ?? 0) - description.startTime.getTime()).toBeGreaterThan(
      3 * 60 * minute,
    );
  });
});

import { randomUUID } from 'node:crypto';
import { createUnmatchedEventActivities } from '../../src/activities/unmatched-events.js';
import { webhookCategories } from '../../src/bank/webhook-categories.js';
import { deliverWebhook, unmatchedWorkflowId } from '../../src/webhooks/deliver.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { unmatchedEventKeys } from '../../src/webhooks/unmatched-keys.js';
import { getEnrollment, getPayment, startPayment, waitForEnrollment } from '../../src/starter/index.js';
import { workflowIds } from '../../src/workflows/ids.js';
import type { PaymentInput } from '../../src/workflows/payment/definitions.js';
import { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { searchAttributes } from '../../src/workflows/search-attributes.js';
import { memoKeys } from '../../src/workflows/shared/published-memo.js';
import { unmatchedWebhookWorkflow } from '../../src/workflows/unmatched-webhook.js';
import { control, enroll, eventually, keyOf, newCustomer, world, type Customer } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

describe("the merchant's reads come from what workflows published in their memo", () => {
  let stack: TestStack;
  let customer: Customer;
  let enrollmentId: string;

  beforeAll(async () => {
    stack = await startTestStack();
    customer = await newCustomer(stack);
    enrollmentId = (await enroll(stack, customer)).result.enrollment?.id ?? '';
  });
  afterAll(() => stack?.stop());

  const paymentInput = (externalId: string) => ({
    externalId,
    enrollmentId,
    deviceId: customer.deviceId,
    amountCents: 1_990,
    description: 'Pedido memo',
    ...world(stack),
  });

  it('answers reads, committed state only, while no worker runs', async () => {
    const created = await startPayment(stack, paymentInput(`memo-${Date.now()}`));
    await stack.stopWorker();
    try {
      const payment = await getPayment(stack, { externalId: created.externalId });
      expect(payment).toMatchObject({
        externalId: created.externalId,
        paymentId: created.payment.id,
        phase: created.payment.status,
      });
      expect(await getEnrollment(stack, keyOf(customer))).toMatchObject({
        phase: 'authorized',
        enrollmentId,
      });
      expect(await waitForEnrollment(stack, keyOf(customer))).toMatchObject({
        outcome: 'authorized',
        enrollment: { id: enrollmentId, status: 'authorized' },
      });

      const { memo } = await stack.client.workflow.getHandle(created.workflowId).describe();
      expect(memo?.[memoKeys.state]).toEqual(payment);
      expect(memo?.[memoKeys.replies]).toMatchObject({
        start: { ok: true, value: { payment: { id: created.payment.id } } },
      });
    } finally {
      await stack.restartWorker();
    }
  });

  it('reads a workflow started before bankflow published its state with the query it answered then', async () => {
    const externalId = `memo-legacy-${Date.now()}`;
    const workflowId = workflowIds.payment(externalId);
    // A slow bank holds the workflow at its first step, before anything it would publish.
    await control(stack, 'PUT', '/sandbox/faults', { latency_ms: 3_000 });
    const handle = await stack.client.workflow.start(biometricPaymentWorkflow, {
      workflowId,
      taskQueue: stack.taskQueue,
      args: [paymentInput(externalId) satisfies PaymentInput],
    });
    try {
      expect((await handle.describe()).memo?.[memoKeys.state]).toBeUndefined();
      expect(await getPayment(stack, { externalId })).toMatchObject({
        externalId,
        phase: 'checking_enrollment',
      });
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
      await handle.terminate('test over');
    }
  });

  it('hands a payment the cash-ins kept as unmatched, from the memo and from the query of events kept before it', async () => {
    const endToEndId = `E12345678${Date.now()}`.padEnd(32, 'x');
    const cashIn = () => {
      const id = randomUUID();
      return receivedWebhook({
        category: webhookCategories.collectingDocument,
        type: 'settled',
        ref_id: id,
        timestamp: new Date().toISOString(),
        data: { id, end_to_end_id: endToEndId, status: 'settled', amount: { amount: 100, currency: 'BRL' } },
      });
    };
    const kept = cashIn();
    await deliverWebhook(stack.client, stack.taskQueue, kept, async () => undefined);
    const keptBefore = cashIn();
    await stack.client.workflow.start(unmatchedWebhookWorkflow, {
      workflowId: unmatchedWorkflowId(keptBefore.key),
      taskQueue: stack.taskQueue,
      args: [keptBefore],
      typedSearchAttributes: [
        { key: searchAttributes.kind, value: 'webhook-unmatched' },
        ...unmatchedEventKeys(keptBefore.envelope),
      ],
    });

    const { claimUnmatchedCashIns } = createUnmatchedEventActivities(stack.client);
    const claimed = await eventually(
      () => claimUnmatchedCashIns(endToEndId, 'payment:memo-test'),
      (events) => events.length === 2,
    );
    expect(claimed.map((event) => event.key).sort()).toEqual([kept.key, keptBefore.key].sort());
  });
});

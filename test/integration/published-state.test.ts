import { randomUUID } from 'node:crypto';
import { createUnmatchedEventActivities } from '../../src/activities/unmatched-events.js';
import { webhookCategories } from '../../src/bank/webhook-categories.js';
import { deliverWebhook } from '../../src/webhooks/deliver.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { getEnrollment, getPayment, startPayment, waitForEnrollment } from '../../src/starter/index.js';
import { memoKeys } from '../../src/contract/memo.js';
import { enroll, eventually, keyOf, newCustomer, world, type Customer } from '../helpers/journey.js';
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

  it('hands a payment the cash-ins kept as unmatched, read from their memos', async () => {
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
    const kept = [cashIn(), cashIn()];
    for (const event of kept) await deliverWebhook(stack.client, stack.taskQueue, event, undefined);

    const { claimUnmatchedCashIns } = createUnmatchedEventActivities(stack.client, stack.taskQueue);
    const claimed = await eventually(
      () => claimUnmatchedCashIns(endToEndId, 'payment:memo-test'),
      (events) => events.length === 2,
    );
    expect(claimed.map((event) => event.key).sort()).toEqual(kept.map((event) => event.key).sort());
  });
});

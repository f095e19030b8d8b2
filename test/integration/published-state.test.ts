import { getEnrollment, getPayment, startPayment, waitForEnrollment } from '../../src/starter/index.js';
import { memoKeys } from '../../src/contract/journeys.js';
import { enroll, keyOf, newCustomer, world, type Customer } from '../helpers/journey.js';
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
});

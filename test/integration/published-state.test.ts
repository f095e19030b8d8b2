import { getEnrollment, getPayment, startPayment, waitForEnrollment } from '../../src/starter/index.js';
import { workflowIds } from '../../src/workflows/ids.js';
import type { PaymentInput } from '../../src/workflows/payment/definitions.js';
import { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { memoKeys } from '../../src/workflows/shared/published-memo.js';
import { control, enroll, keyOf, newCustomer, world, type Customer } from '../helpers/journey.js';
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
});

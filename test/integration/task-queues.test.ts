import { randomUUID } from 'node:crypto';
import { workflowIds } from '../../src/contract/ids.js';
import { workloadTaskQueue, type Workload } from '../../src/contract/temporal.js';
import { enroll, fastPolling, newCustomer, payAndSettle } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

interface Scheduled {
  activity: string;
  queue: string;
  priorityKey: number;
}

async function scheduledActivities(stack: TestStack, workflowId: string): Promise<Scheduled[]> {
  const events = (await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  return events.flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (!attributes) return [];
    return [
      {
        activity: attributes.activityType?.name ?? '',
        queue: attributes.taskQueue?.name ?? '',
        priorityKey: attributes.priority?.priorityKey ?? 0,
      },
    ];
  });
}

describe('task queues by workload', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      receiver: true,
      bank: { requestsPerSecond: 50, interactiveSharePercent: 20 },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('runs the calls a customer waits on on the interactive queue, polls on the polls queue and Temporal calls on the internal queue', async () => {
    const customer = await newCustomer(stack);
    const { started } = await enroll(stack, customer, { polling: fastPolling });
    const externalId = `queues-${randomUUID()}`;
    await payAndSettle(stack, customer, {
      externalId,
      enrollmentId: started.enrollmentId,
      amountCents: 1_990,
      description: 'Pedido por fila',
    });
    const scheduled = [
      ...(await scheduledActivities(
        stack,
        workflowIds.enrollment(customer.deviceId, customer.participantId),
      )),
      ...(await scheduledActivities(stack, workflowIds.payment(externalId))),
    ];
    const queue = (workload: Workload) => workloadTaskQueue(stack.taskQueue, workload);
    const onQueue = (workload: Workload) => scheduled.filter((entry) => entry.queue === queue(workload));

    expect(new Set(onQueue('interactive').map((entry) => entry.activity))).toEqual(
      new Set([
        'authorizeBiometricPayment',
        'createBiometricPayment',
        'createEnrollment',
        'getPaymentAuthorizationOptions',
        'getRegistrationOptions',
        'listEnrollments',
        'registerCredential',
      ]),
    );
    expect(onQueue('internal').map((entry) => entry.activity)).toContain('claimCashIns');
    // The rest are the journeys' polls, on the polls queue and its budget, a webhook's read (1) ahead of a
    // timer's (3); none is left on the workflow's own queue.
    expect(onQueue('background')).toEqual([]);
    expect(onQueue('polls').length).toBeGreaterThan(0);
    for (const entry of onQueue('polls')) {
      expect(entry).toEqual({
        activity: expect.stringMatching(/^(getBiometricPayment|listEnrollments)$/),
        queue: `${stack.taskQueue}-polls`,
        priorityKey: entry.priorityKey === 1 ? 1 : 3,
      });
    }
    expect(onQueue('polls').length + onQueue('interactive').length + onQueue('internal').length).toBe(
      scheduled.length,
    );
  });

  it('splits the bank budget between the bank queues, leaves the internal queue unpaced and dispatches nothing eagerly', () => {
    const { worker } = stack;
    expect(worker.worker('interactive').options.maxTaskQueueActivitiesPerSecond).toBe(10);
    expect(worker.worker('background').options.maxTaskQueueActivitiesPerSecond).toBe(20);
    expect(worker.worker('polls').options.maxTaskQueueActivitiesPerSecond).toBe(20);
    expect(worker.worker('polls').options.taskQueue).toBe(`${stack.taskQueue}-polls`);
    expect(worker.worker('internal').options.maxTaskQueueActivitiesPerSecond).toBeUndefined();
    expect(worker.worker('background').options.maxEagerActivityReservationsPerWorkflowTask).toBe(0);
    expect(worker.worker('interactive').options.taskQueue).toBe(`${stack.taskQueue}-interactive`);
    expect(worker.worker('internal').options.taskQueue).toBe(`${stack.taskQueue}-internal`);
  });
});

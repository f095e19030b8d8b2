import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { temporal } from '@temporalio/proto';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import { paymentWebhookSignal } from '../../src/contract/temporal.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import { stickyQueueScheduleToStartTimeout } from '../../src/temporal/worker-defaults.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { enroll, keyOf, newCustomer, world } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { workerProcessEnv } from '../helpers/cli-env.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { workerProcesses } from '../helpers/worker-processes.js';

const EventType = temporal.api.enums.v1.EventType;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const millisOf = (event: HistoryEvent | undefined) =>
  Number(event?.eventTime?.seconds ?? Number.NaN) * 1000 + Math.round((event?.eventTime?.nanos ?? 0) / 1e6);

/**
 * A worker that dies without shutting down cannot tell Temporal its workflows' next tasks should go
 * elsewhere: they wait on its sticky queue for the sticky schedule-to-start timeout (10 s by the SDK's
 * default) before any worker may take them. Two `bankflow worker` processes; the one holding a payment is
 * killed while the payment waits, and a webhook for it must reach the other within seconds.
 */
describe('a journey whose worker is killed while it waits', () => {
  const tempDir = tempDirs('bankflow-sticky-kill-');
  let stack: TestStack;
  let logDir: string;
  const workers = workerProcesses(() => path.join(logDir, 'workers.log'));
  const startWorker = (name: string) =>
    workers.start(workerProcessEnv(stack, { BANKFLOW_DATA_DIR: path.join(logDir, name) }));

  beforeAll(async () => {
    stack = await startTestStack();
    await stack.stopWorker();
    logDir = tempDir();
  });

  afterAll(async () => {
    await workers.stopAll();
    await stack?.stop();
  });

  it("goes on on another worker after the sticky timeout, not the SDK's 10 s", async () => {
    expect(stickyQueueScheduleToStartTimeout).toBe('3 seconds');
    const first = await startWorker('first');
    const customer = await newCustomer(stack);
    const { result: enrolled } = await enroll(stack, customer);
    const created = await startTunedPayment(
      stack,
      {
        enrollmentId: enrolled.enrollment?.id ?? '',
        deviceId: keyOf(customer).deviceId,
        amountCents: 12_345,
        description: 'Pedido 1234',
        ...world(stack),
      },
      // No poll while the test runs: the webhook below is the payment's only next task.
      { polling: { firstPollAfterMs: 3_600_000, maxPollIntervalMs: 3_600_000 } },
    );
    const handle = stack.client.workflow.getHandle(created.workflowId);
    const second = await startWorker('second');
    await workers.kill(first);

    await handle.signal(
      paymentWebhookSignal,
      receivedWebhook({
        category: webhookCategories.initiationDocument,
        type: created.payment.status,
        ref_id: created.payment.id,
        timestamp: new Date().toISOString(),
        data: created.payment,
      }),
    );
    const signalled = (events: HistoryEvent[]) =>
      events.findIndex((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED);
    const completedAfter = (events: HistoryEvent[], from: number) =>
      events.findIndex(
        (event, index) => index > from && event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
      );
    let events: HistoryEvent[] = [];
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await sleep(100)) {
      events = (await handle.fetchHistory()).events ?? [];
      const signal = signalled(events);
      if (signal >= 0 && completedAfter(events, signal) >= 0) break;
    }
    const signal = signalled(events);
    const completed = completedAfter(events, signal);
    expect(completed).toBeGreaterThan(signal);

    // The task went to the dead worker's sticky queue, timed out there after 3 s, and the second worker took
    // it.
    const timedOut = events.findIndex(
      (event, index) => index < completed && event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT,
    );
    expect(events[timedOut]?.workflowTaskTimedOutEventAttributes?.timeoutType).toBe(
      temporal.api.enums.v1.TimeoutType.TIMEOUT_TYPE_SCHEDULE_TO_START,
    );
    const sticky = events
      .slice(0, timedOut)
      .reverse()
      .find((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED);
    expect(sticky?.workflowTaskScheduledEventAttributes?.taskQueue?.kind).toBe(
      temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_STICKY,
    );
    const waitedOnStickyMs = millisOf(events[timedOut]) - millisOf(sticky);
    expect(waitedOnStickyMs).toBeGreaterThanOrEqual(2_500);
    expect(waitedOnStickyMs).toBeLessThan(5_000);

    const started = events[completed - 1];
    expect(started?.eventType).toBe(EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED);
    expect(started?.workflowTaskStartedEventAttributes?.identity).toBe(
      `${second.child.pid}@${os.hostname()}`,
    );
    expect(millisOf(started) - millisOf(events[signal])).toBeLessThan(6_000);
  }, 240_000);
});

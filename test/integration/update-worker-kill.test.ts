import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import { authorizePayment, waitForPaymentResult } from '../../src/starter/index.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { paymentWebhookSignal } from '../../src/contract/temporal.js';
import { enroll, keyOf, newCustomer, world } from '../helpers/journey.js';
import { recordHistory } from '../helpers/replay.js';
import { encryptionKeys, required, startTestStack, type TestStack } from '../helpers/stack.js';
import { workerProcessEnv } from '../helpers/cli-env.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { workerProcesses } from '../helpers/worker-processes.js';
import { testEnvKeys } from '../setup/shared.js';

const EventType = temporal.api.enums.v1.EventType;

/** The poll interval of the payment under test: its timer must fire while no worker runs. */
const polling = { firstPollAfterMs: 1_000, maxPollIntervalMs: 1_000 };
/**
 * This stack has no receiver, so the settled payment's Pix cash-in never comes: its wait ends in 2 s (as
 * payAndSettle's) rather than the minute a production run gives it.
 */
const cashInWaitMs = 2_000;

async function historyOf(client: Client, workflowId: string) {
  return client.workflow.getHandle(workflowId).fetchHistory();
}

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** The index of the last event of `type` before `end`, or -1. */
function lastBefore(events: HistoryEvent[], type: temporal.api.enums.v1.EventType, end: number): number {
  for (let index = end - 1; index >= 0; index--) if (events[index]?.eventType === type) return index;
  return -1;
}

const eventsOf = async (client: Client, workflowId: string) =>
  (await historyOf(client, workflowId)).events ?? [];

/**
 * An update accepted in one workflow task together with other new events is the case in which bankflow once
 * saw the SDK replay commands in another order than it recorded them (docs/reliability.md). This test builds
 * that case on purpose with `bankflow worker` processes: the merchant's authorize update, a fired poll timer
 * and a webhook reach a worker new to the workflow in one task; that worker is killed as soon as it accepted
 * the update, and a third worker, holding nothing in its cache, must go on from the recorded history.
 */
describe('an update accepted together with other events, after the worker that accepted it is killed', () => {
  const tempDir = tempDirs('bankflow-update-kill-');
  let stack: TestStack;
  let logDir: string;
  const workers = workerProcesses(() => path.join(logDir, 'workers.log'));
  const startWorker = () =>
    workers.start(workerProcessEnv(stack, { BANKFLOW_DATA_DIR: path.join(logDir, 'data') }));

  beforeAll(async () => {
    stack = await startTestStack();
    await stack.stopWorker();
    logDir = tempDir();
  });

  afterAll(async () => {
    await workers.stopAll();
    await stack?.stop();
  });

  it('replays the task that accepted the update, and the payment settles once', async () => {
    const first = await startWorker();
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
      { polling, cashInWaitMs },
    );
    const { workflowId } = created;
    await workers.kill(first);

    // With no worker running: the merchant's authorize waits for a worker, a webhook arrives, the poll timer
    // fires.
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    const authorized = authorizePayment(
      { ...stack, replyTimeoutMs: 120_000 },
      { externalId: created.externalId, assertion },
    );
    await stack.client.workflow.getHandle(workflowId).signal(
      paymentWebhookSignal,
      receivedWebhook({
        category: webhookCategories.initiationDocument,
        type: created.payment.status,
        ref_id: created.payment.id,
        timestamp: new Date().toISOString(),
        data: created.payment,
      }),
    );
    await sleep(polling.firstPollAfterMs * 2.5);

    // The start's own update was accepted in the first task; the authorize is the second.
    const acceptedUpdates = (events: HistoryEvent[]) =>
      events.filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED);
    const second = await startWorker();
    while (acceptedUpdates(await eventsOf(stack.client, workflowId)).length < 2) await sleep(20);
    await workers.kill(second);

    // The task that accepted the update also took the fired timer and the webhook.
    const events = await eventsOf(stack.client, workflowId);
    const accepted = lastBefore(
      events,
      EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED,
      events.length,
    );
    const taskStart = lastBefore(events, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, accepted);
    const previousTaskEnd = lastBefore(events, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, taskStart);
    const takenTogether = events.slice(previousTaskEnd + 1, taskStart).map((event) => event.eventType);
    expect(takenTogether).toEqual(
      expect.arrayContaining([
        EventType.EVENT_TYPE_TIMER_FIRED,
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
      ]),
    );

    await startWorker();
    expect(await authorized).toEqual({ ok: true, status: expect.any(String) });
    expect((await waitForPaymentResult(stack, { externalId: created.externalId })).outcome).toBe('settled');

    const history = await historyOf(stack.client, workflowId);
    const failedTasks = (history.events ?? []).filter(
      (event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED,
    );
    expect(failedTasks).toEqual([]);
    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: required(testEnvKeys.bundle) },
        dataConverter: bankflowDataConverter(encryptionKeys),
      },
      history,
      workflowId,
    );
    await recordHistory(stack.client, workflowId, 'payment-update-with-timer-and-webhook');
  }, 240_000);
});

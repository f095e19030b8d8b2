import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/common';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { createNotificationActivities } from '../../src/activities/notifications.js';
import { createCashInClaimActivities } from '../../src/activities/cash-in-claims.js';
import type { Enrollment } from '../../src/bank/schemas/enrollment.js';
import { enrollmentTimings, type EnrollmentResult } from '../../src/contract/enrollment.js';
import {
  enrollmentWebhookSignal,
  paymentWebhookSignal,
  recurrenceAttemptsSignal,
  workloadTaskQueue,
} from '../../src/contract/temporal.js';
import { paymentTimings } from '../../src/contract/payment.js';
import { type RecurrenceAttempt, type RecurrenceResult } from '../../src/contract/recurrence.js';
import type { ReceivedWebhook } from '../../src/contract/webhook-events.js';
import { startTunedEnrollment } from '../../src/starter/enrollments.js';
import {
  authorizePayment,
  cancelRecurrence,
  getPayment,
  getRegistrationOptions,
  registerCredential,
  waitForEnrollment,
  waitForPaymentResult,
  type StarterContext,
} from '../../src/starter/index.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import { startTunedRecurrence, type StartedRecurrence } from '../../src/starter/recurrences.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { runsOf } from '../../devkit/temporal/runs.js';
import { control, enroll, eventually, fastPolling, keyOf, newCustomer, world } from '../helpers/journey.js';
import { enrollmentWebhook } from '../helpers/received-webhook.js';
import { recurrenceRequest } from '../helpers/recurrences.js';
import { encryptionKeys } from '../helpers/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const { EventType } = proto.temporal.api.enums.v1;

/** Recurrences raced: each one's cancel meets its continue-as-new point at another offset. */
const raced = 32;

const eventsOf = async (client: Client, workflowId: string, runId?: string) =>
  (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('messages that reach a journey at its continue-as-new point, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  // Server time moves only when the test skips it: a recurrence waits with no timer of its own.
  let ctx: StarterContext;

  beforeAll(async () => {
    stack = await startTimeSkippingStack();
    ctx = { client: stack.manualTimeClient, taskQueue: stack.taskQueue, replyTimeoutMs: 30_000 };
    internal = { worker: stack.worker.worker('internal') };
  });
  afterAll(async () => {
    if (internal?.run) await holdHandOffs();
    await stack?.stop();
  });

  /** Waits until the latest run's last workflow task completed: what was sent to it has been taken in. */
  const taken = (workflowId: string) =>
    eventually(
      () => eventsOf(ctx.client, workflowId),
      (events) => {
        const last = events.filter(
          (event) => event.workflowTaskScheduledEventAttributes || event.workflowTaskCompletedEventAttributes,
        );
        return Boolean(last.at(-1)?.workflowTaskCompletedEventAttributes);
      },
    );

  /** Waits until the latest run has taken in everything sent to it and its activities are done. */
  const idle = async (workflowId: string) => {
    await taken(workflowId);
    return eventually(
      () => ctx.client.workflow.getHandle(workflowId).describe(),
      ({ raw }) => (raw.pendingActivities ?? []).length === 0,
    );
  };

  /**
   * What serves the internal queue, where the notifications' hand-offs run: the stack's own worker at first.
   */
  let internal: { worker: Pick<Worker, 'shutdown' | 'getState'>; run?: Promise<void> };

  /**
   * Stops serving the internal queue: a notification hand-off scheduled from now on waits, as a slow one
   * would, until `releaseHandOffs`, and a run that awaits it stands at its ending.
   */
  async function holdHandOffs(): Promise<void> {
    internal.worker.shutdown();
    await internal.run;
    await eventually(
      async () => internal.worker.getState(),
      (state) => state === 'STOPPED',
      60_000,
    );
  }

  /**
   * Serves the internal queue again with bankflow's own activities the journeys here call on it (the
   * notifications' hand-offs, with no endpoints as the stack has none, and the cash-in claims). Only that
   * queue's worker changes: a workflow's tasks stay with the worker that has it cached.
   */
  async function releaseHandOffs(): Promise<void> {
    const worker = await Worker.create({
      connection: stack.env.nativeConnection,
      namespace: stack.env.namespace ?? 'default',
      taskQueue: workloadTaskQueue(stack.taskQueue, 'internal'),
      activities: {
        ...createNotificationActivities(stack.client, stack.taskQueue, { endpoints: [], secrets: [] }),
        ...createCashInClaimActivities(stack.client, stack.taskQueue),
      },
      dataConverter: bankflowDataConverter(encryptionKeys, 'mark'),
    });
    internal = { worker, run: worker.run() };
  }

  /**
   * A new collection attempt for the recurrence, as the attempts sync hands it over: its notification is
   * owed.
   */
  const newAttempt = (recurrence: StartedRecurrence, day: number): RecurrenceAttempt => ({
    id: `${recurrence.externalId}-attempt-${day}`,
    collectionId: `${recurrence.externalId}-collection-${day}`,
    status: 'settled',
    timestamp: new Date(Date.UTC(2031, 0, day)).toISOString(),
    type: 'automatic',
    dueDate: new Date(Date.UTC(2031, 0, day)).toISOString().slice(0, 10),
    endToEndId: null,
    transactionDate: null,
    sources: [],
  });

  /** Whether the recurrence's run stopped following its attempts: it stands at its continue-as-new point. */
  const atContinueAsNewPoint = async (workflowId: string) =>
    (await eventsOf(ctx.client, workflowId)).some(
      (event) => event.eventType === EventType.EVENT_TYPE_TIMER_CANCELED,
    );

  /**
   * Delivers `webhook` to the workflow again and again (the copies are duplicates, which change nothing)
   * until its run's history reaches `bound`: the run continues as new at its next chance.
   */
  async function fillHistory(
    workflowId: string,
    signal: SignalDefinition<[ReceivedWebhook]>,
    webhook: ReceivedWebhook,
    bound: number,
  ) {
    const handle = ctx.client.workflow.getHandle(workflowId);
    while ((await handle.describe()).historyLength < bound + 10)
      await Promise.all(Array.from({ length: 20 }, () => handle.signal(signal, webhook)));
    await taken(workflowId);
  }

  it('stops every recurrence whose cancel was accepted around its continue-as-new point: none is lost', async () => {
    // The history a recurrence has once generated, measured, so each raced one is a few attempts from its
    // bound.
    const probe = await startTunedRecurrence(ctx, recurrenceRequest(stack), {});
    const generated = await idle(probe.workflowId);
    const maxHistoryEvents = generated.historyLength + 12;
    await cancelRecurrence(ctx, { externalId: probe.externalId, reason: 'probe done' });

    const recurrences = await Promise.all(
      Array.from({ length: raced }, () =>
        startTunedRecurrence(ctx, recurrenceRequest(stack), { maxHistoryEvents }),
      ),
    );
    await Promise.all(recurrences.map(({ workflowId }) => idle(workflowId)));
    await holdHandOffs();

    // Offsets: with the attempts that reach the bound, once the run stands at its continue-as-new point, or a
    // little later each time after the held notifications go out and the run goes on.
    type Offset = { with: true } | { atPoint: true } | { afterReleaseMs: number };
    const offsetOf = (index: number): Offset =>
      index % 4 === 0 ? { with: true } : index % 4 === 1 ? { atPoint: true } : { afterReleaseMs: index * 12 };
    const reasonOf = (index: number) => `race ${index}: the customer closed the contract`;
    const cancels: Promise<RecurrenceResult>[] = [];
    const cancel = (index: number) => {
      const answer = cancelRecurrence(ctx, {
        externalId: recurrences[index]!.externalId,
        reason: reasonOf(index),
      });
      // Awaited below, all together: a failure now is not yet the test's.
      answer.catch(() => undefined);
      cancels[index] = answer;
    };

    await Promise.all(
      recurrences.map(async (recurrence, index) => {
        const handle = ctx.client.workflow.getHandle(recurrence.workflowId);
        const offset = offsetOf(index);
        for (let day = 1; !(await atContinueAsNewPoint(recurrence.workflowId)); day++) {
          const { historyLength } = await handle.describe();
          // The attempts whose task sees the history at its bound (three events on: signal, task scheduled,
          // started).
          if ('with' in offset && historyLength + 3 >= maxHistoryEvents && cancels[index] === undefined)
            cancel(index);
          await handle.signal(recurrenceAttemptsSignal, {
            source: 'sync',
            attempts: [newAttempt(recurrence, day)],
          });
          await taken(recurrence.workflowId);
          if (cancels[index]) break;
        }
        if ('atPoint' in offset) {
          cancel(index);
          await eventually(
            () => eventsOf(ctx.client, recurrence.workflowId),
            (events) => events.some((event) => event.workflowExecutionUpdateAcceptedEventAttributes),
          );
        }
      }),
    );

    const released = releaseHandOffs();
    await Promise.all(
      recurrences.map(async (_, index) => {
        const offset = offsetOf(index);
        if (!('afterReleaseMs' in offset)) return;
        await sleep(offset.afterReleaseMs);
        cancel(index);
      }),
    );
    await released;

    const answerOf = (index: number, answer: Promise<RecurrenceResult>) =>
      answer.then(
        ({ outcome, reason }) =>
          `${outcome}, ${reason.startsWith(`cancelled by the merchant: ${reasonOf(index)}.`) ? 'for its reason' : reason}`,
        (error: unknown) => `no answer: ${String(error)}`,
      );
    const acceptedByARun = async (workflowId: string) => {
      const runs = await runsOf(ctx.client, workflowId);
      const histories = await Promise.all(runs.map(({ runId }) => eventsOf(ctx.client, workflowId, runId)));
      return histories.flat().some((event) => event.workflowExecutionUpdateAcceptedEventAttributes);
    };
    const outcomes = await Promise.all(
      recurrences.map(async ({ workflowId }, index) => {
        let answer = await answerOf(index, cancels[index]!);
        // The test server fails an update that reached it while the run's task was continuing it as new,
        // where a Temporal server retries it on the next run: no run accepted that cancel, and the merchant
        // sends it again.
        if (answer.startsWith('no answer') && !(await acceptedByARun(workflowId))) {
          cancel(index);
          answer = await answerOf(index, cancels[index]!);
        }
        const handle = ctx.client.workflow.getHandle(workflowId);
        const ended = await eventually(
          () => handle.describe(),
          ({ status }) => status.name !== 'RUNNING',
          30_000,
        ).then(
          async () => ((await handle.result()) as RecurrenceResult).outcome,
          () => 'still running',
        );
        return { index, offset: offsetOf(index), answer, ended };
      }),
    );
    expect(outcomes).toEqual(
      outcomes.map(({ index, offset }) => ({
        index,
        offset,
        answer: 'stopped, for its reason',
        ended: 'stopped',
      })),
    );
  });

  /**
   * An enrollment the account holder authorized at the bank, waiting for its credential, with the
   * registration options the customer got.
   */
  async function awaitingCredential() {
    const customer = await newCustomer(stack);
    const started = await startTunedEnrollment(
      ctx,
      { ...keyOf(customer), returnToUrl: 'https://merchant.example/enrolled' },
      { polling: fastPolling },
    );
    const atBank = await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
      {},
    );
    const options = await getRegistrationOptions(ctx, keyOf(customer));
    return { customer, started, workflowId: started.workflowId, atBank, options };
  }

  it("answers a start asked at an enrollment's continue-as-new point, and its next run reads the bank at once for a webhook heard there", async () => {
    const { customer, started, workflowId, atBank, options } = await awaitingCredential();
    const handle = ctx.client.workflow.getHandle(workflowId);

    // The credential's registration makes the enrollment authorized, and its notification is held.
    await holdHandOffs();
    const registered = await registerCredential(ctx, {
      ...keyOf(customer),
      assertion: customer.authenticator.createCredential(options, stack.sandbox.url),
    });
    expect(registered).toMatchObject({ ok: true });
    await taken(workflowId);
    // A webhook about another enrollment fills the run's history up to its bound: the run stands at its
    // continue-as-new point until the notification goes out.
    await fillHistory(
      workflowId,
      enrollmentWebhookSignal,
      enrollmentWebhook({ ...(atBank as unknown as Enrollment), id: 'enrollment-elsewhere' }),
      enrollmentTimings.historyBound - enrollmentTimings.historyHeadroom,
    );
    const firstRun = await handle.describe();
    expect(firstRun.raw.pendingActivities?.map((activity) => activity.activityType?.name)).toEqual([
      'handOffNotification',
    ]);

    // There the bank revokes the enrollment, its webhook comes, and the merchant's start is asked again.
    const revoked = await control(
      stack,
      'POST',
      `/sandbox/biometrics/enrollments/${started.enrollmentId}/revoke`,
      {},
    );
    await handle.signal(enrollmentWebhookSignal, enrollmentWebhook(revoked as unknown as Enrollment));
    const again = await startTunedEnrollment(
      ctx,
      { ...keyOf(customer), returnToUrl: 'https://merchant.example/enrolled' },
      { polling: fastPolling },
    );
    expect(again).toMatchObject({ enrollmentId: started.enrollmentId, redirectUrl: started.redirectUrl });
    await taken(workflowId);
    expect((await ctx.client.workflow.getHandle(workflowId, firstRun.runId).describe()).status.name).toBe(
      'RUNNING',
    );

    await releaseHandOffs();
    // Server time stands still: only a read made at once, not the next run's daily check, finds the
    // revocation.
    await eventually(
      () => handle.describe(),
      ({ status }) => status.name === 'COMPLETED',
      30_000,
    );
    expect((await handle.result()) as EnrollmentResult).toMatchObject({ outcome: 'revoked' });
    const runs = await runsOf(ctx.client, workflowId);
    expect(runs).toHaveLength(2);
    expect(runs[0]).toMatchObject({ runId: firstRun.runId, continuedAsNew: true });
    const nextRun = await eventsOf(ctx.client, workflowId, runs[1]!.runId);
    expect(nextRun.some((event) => event.timerStartedEventAttributes)).toBe(false);
  });

  it('carries the webhooks a payment heard into its next run: a copy delivered there is a duplicate', async () => {
    // The bank settles only when told, once the copy reached the next run.
    await control(stack, 'PUT', '/sandbox/biometrics/settings', { settlement_delay_ms: null });
    const manual = { ...stack, client: stack.manualTimeClient };
    const customer = await newCustomer(stack);
    const enrolled = await enroll(manual, customer, { polling: fastPolling });
    const created = await startTunedPayment(
      manual,
      {
        externalId: `pix-${randomUUID()}`,
        enrollmentId: enrolled.started.enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 1_050,
        description: 'continue-as-new test',
        ...world(stack),
      },
      { polling: fastPolling, cashInWaitMs: 1_000 },
    );
    const { consentDeadline } = await getPayment(ctx, { externalId: created.externalId });
    expect(consentDeadline).toBeDefined();
    // A webhook the payment only notes, as it names an enrollment, fills the run's history up to its bound
    // while it waits for the customer's consent: it continues as new at once, keeping the consent window.
    const noted = enrollmentWebhook(enrolled.result.enrollment!);
    await fillHistory(
      created.workflowId,
      paymentWebhookSignal,
      noted,
      paymentTimings.historyBound - paymentTimings.historyHeadroom,
    );
    await eventually(
      () => runsOf(ctx.client, created.workflowId),
      (runs) => runs.length === 2,
    );
    // The customer's authorization reaches the next run, whose consent window is still open (the
    // time-skipping server carries no memo into a continued run, so the state is read once the payment
    // settled).
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    expect(await authorizePayment(manual, { externalId: created.externalId, assertion })).toMatchObject({
      ok: true,
    });
    await ctx.client.workflow.getHandle(created.workflowId).signal(paymentWebhookSignal, noted);
    await taken(created.workflowId);
    await control(stack, 'POST', `/sandbox/biometrics/payments/${created.payment.id}/settle`, {});

    expect(await waitForPaymentResult(ctx, { externalId: created.externalId })).toMatchObject({
      outcome: 'settled',
    });
    const state = await getPayment(ctx, { externalId: created.externalId });
    expect(state.consentDeadline).toBe(consentDeadline);
    expect(state.webhooksReceived).toBe(1);
    expect(
      state.evidence.filter(({ detail }) => detail === 'ignored: the event data is not a payment'),
    ).toHaveLength(1);
  });

  it('continues an enrollment waiting for its credential as new at its history bound, and registers the credential in the next run', async () => {
    const { customer, workflowId, atBank, options } = await awaitingCredential();
    await fillHistory(
      workflowId,
      enrollmentWebhookSignal,
      enrollmentWebhook({ ...(atBank as unknown as Enrollment), id: 'enrollment-elsewhere' }),
      enrollmentTimings.historyBound - enrollmentTimings.historyHeadroom,
    );
    const [first, next] = await eventually(
      () => runsOf(ctx.client, workflowId),
      (runs) => runs.length === 2,
    );
    expect(first).toMatchObject({ continuedAsNew: true });
    // The next run goes on waiting for the credential: it creates nothing at the bank again.
    const nextActivities = (await eventsOf(ctx.client, workflowId, next!.runId)).map(
      (event) => event.activityTaskScheduledEventAttributes?.activityType?.name,
    );
    expect(nextActivities).not.toContain('createEnrollment');

    const registered = await registerCredential(ctx, {
      ...keyOf(customer),
      assertion: customer.authenticator.createCredential(options, stack.sandbox.url),
    });
    expect(registered).toMatchObject({ ok: true });
    expect((await waitForEnrollment(ctx, keyOf(customer))).outcome).toBe('authorized');
  });
});

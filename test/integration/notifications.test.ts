import { merchantSecret, verifiedEvent } from '../helpers/merchant-notifications.js';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createNotificationActivities } from '../../src/activities/notifications.js';
import {
  notificationHeaders,
  notificationSignal,
  notificationsMemoKey,
  notificationsWorkflowId,
  type NotificationEvent,
  type NotificationLog,
} from '../../src/contract/notifications.js';
import {
  authorizePayment,
  getPayment,
  startPayment,
  waitForPaymentResult,
  type StartPaymentInput,
} from '../../src/starter/index.js';
import { control, enroll, eventually, newCustomer, world, type Customer } from '../helpers/journey.js';
import { recordHistory } from '../helpers/replay.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { sendUnconfirmedSettlement } from '../helpers/unconfirmed-webhooks.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

let sequence = 0;
const uniqueRef = (label: string) => `${label}-${Date.now()}-${++sequence}`;

describe('merchant notifications of a payment journey, over HTTP to the merchant endpoint', () => {
  let stack: TestStack;
  let merchant: WebhookReceiver;
  let customer: Customer;
  let enrollmentId: string;

  const paymentInput = (): StartPaymentInput => ({
    externalId: uniqueRef('notified'),
    enrollmentId,
    deviceId: customer.deviceId,
    amountCents: 4_200,
    description: 'Pedido notificado',
    ...world(stack),
  });

  /** The events the merchant received for `paymentId`, each checked against its signature. */
  const eventsOf = (paymentId: string) =>
    merchant.received
      .map((request) => ({
        request,
        event: verifiedEvent(request),
      }))
      .filter(({ event }) => event.resource.id === paymentId);

  beforeAll(async () => {
    merchant = await startWebhookReceiver();
    stack = await startTestStack({
      receiver: true,
      notifications: { endpoints: [merchant.url], secrets: [merchantSecret] },
    });
    customer = await newCustomer(stack);
    enrollmentId = (await enroll(stack, customer)).result.enrollment?.id ?? '';
  });
  afterAll(async () => {
    await stack?.stop();
    await merchant?.close();
  });

  it('posts created, awaiting authorization, authorized and settled in order, each signed, with the bank record', async () => {
    const created = await startPayment(stack, paymentInput());
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(stack, { externalId: created.externalId, assertion });
    const result = await waitForPaymentResult(stack, { externalId: created.externalId });
    expect(result.outcome).toBe('settled');

    const paymentId = created.payment.id;
    const received = await eventually(
      async () => eventsOf(paymentId),
      (events) => events.some(({ event }) => event.type === 'payment.settled'),
    );
    const events = received.map(({ event }) => event);
    expect(events.map((event) => event.type)).toEqual([
      'payment.created',
      'payment.awaiting_authorization',
      'payment.authorized',
      'payment.settled',
    ]);
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4]);
    expect(events.map((event) => event.id)).toEqual([1, 2, 3, 4].map((n) => `payment:${paymentId}:${n}`));
    const settled = events[3];
    expect(settled?.data).toMatchObject({
      id: paymentId,
      external_id: created.externalId,
      status: 'settled',
      end_to_end_id: result.endToEndId,
      amount: { amount: 4_200, currency: 'BRL' },
    });
    expect(received[3]?.request.headers[notificationHeaders.eventId]).toBe(settled?.id);
    expect(received[3]?.request.headers[notificationHeaders.eventType]).toBe('payment.settled');
    expect(received[3]?.request.headers[notificationHeaders.signature]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    // The delivery log support reads: every event delivered, on the first attempt, with the answer.
    const outbox = stack.client.workflow.getHandle(
      notificationsWorkflowId({ type: 'payment', id: paymentId }),
    );
    const log = await eventually(
      async () => (await outbox.describe()).memo?.[notificationsMemoKey] as NotificationLog | undefined,
      (kept) =>
        kept?.deliveries.length === 4 && kept.deliveries.every((entry) => entry.status === 'delivered'),
    );
    expect(log?.deliveries).toEqual(
      events.map((event) =>
        expect.objectContaining({
          eventId: event.id,
          endpoint: merchant.url,
          attempts: 1,
          answer: 'HTTP 200',
        }),
      ),
    );

    // An event id handed over again (a retried hand-over) is the same event: it is not sent again.
    const before = merchant.received.length;
    await outbox.signal(notificationSignal, { ...(settled as NotificationEvent), data: { forged: true } });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(merchant.received.length).toBe(before);
    await recordHistory(stack.client, outbox.workflowId, 'notifications-delivered');
  });

  it('posts enrollment.authorized, then enrollment.revoked once the bank shows the customer revoked it', async () => {
    const revoking = await newCustomer(stack);
    const { started } = await enroll(stack, revoking);
    await control(stack, 'POST', `/sandbox/biometrics/enrollments/${started.enrollmentId}/revoke`);
    expect(await stack.client.workflow.getHandle(started.workflowId).result()).toMatchObject({
      outcome: 'revoked',
    });
    const received = await eventually(
      async () => eventsOf(started.enrollmentId),
      (events) => events.length === 2,
    );
    expect(received.map(({ event }) => [event.type, event.id])).toEqual([
      ['enrollment.authorized', `enrollment:${started.enrollmentId}:1`],
      ['enrollment.revoked', `enrollment:${started.enrollmentId}:2`],
    ]);
    expect(received[1]?.event.data).toMatchObject({
      id: started.enrollmentId,
      status: 'revoked',
      device_id: revoking.deviceId,
    });
    // The customer's account at the participant stays out of the merchant's notifications.
    expect(received[0]?.event.data).not.toHaveProperty('account_info');
  });

  it('starts no outbox when the worker has no endpoint configured: the hand-over does nothing', async () => {
    const resource = { type: 'payment' as const, id: randomUUID() };
    const event: NotificationEvent = {
      id: `payment:${resource.id}:1`,
      type: 'payment.created',
      resource,
      sequence: 1,
      occurred_at: new Date().toISOString(),
      data: {},
    };
    const unconfigured = createNotificationActivities(stack.client, stack.taskQueue, {
      endpoints: [],
      secrets: [],
    });
    await unconfigured.handOffNotification(event);
    await expect(
      stack.client.workflow.getHandle(notificationsWorkflowId(resource)).describe(),
    ).rejects.toThrow(WorkflowNotFoundError);
  });

  it("sends no settled notification for a settled webhook the bank's GET does not confirm", async () => {
    const created = await startPayment(stack, paymentInput());
    await sendUnconfirmedSettlement(stack, created.payment, enrollmentId);
    await eventually(
      () => getPayment(stack, { externalId: created.externalId }),
      (state) => state.evidence.some((item) => item.source === 'webhook' && item.status === 'settled'),
    );
    await eventually(
      async () => eventsOf(created.payment.id),
      (events) => events.some(({ event }) => event.type === 'payment.awaiting_authorization'),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(eventsOf(created.payment.id).map(({ event }) => event.type)).toEqual([
      'payment.created',
      'payment.awaiting_authorization',
    ]);
    await stack.client.workflow.getHandle(created.workflowId).terminate('test done');
  });
});

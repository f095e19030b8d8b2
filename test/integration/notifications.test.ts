import { merchantSecret, verifiedEvent } from '../helpers/merchant-notifications.js';
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowNotFoundError } from '@temporalio/client';
import { createNotificationActivities } from '../../src/activities/notifications.js';
import {
  notificationHeaders,
  notificationSignal,
  notificationsMemoKey,
  notificationsWorkflowId,
  type NotificationEvent,
  type NotificationLog,
  type NotificationType,
} from '../../src/contract/notifications.js';
import { readNotificationLog, resendNotification } from '../../src/notifications/log.js';
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

/** Event `n` of a payment no journey runs: the tests hand it to the outbox as a journey's hand-over does. */
const paymentEvent = (
  resource: NotificationEvent['resource'],
  n: number,
  type: NotificationType,
): NotificationEvent => ({
  id: `${resource.type}:${resource.id}:${n}`,
  type,
  resource,
  sequence: n,
  occurred_at: new Date().toISOString(),
  data: { id: resource.id, status: type.slice('payment.'.length) },
});

/** The bytes of the answer body a server managed to write before the connection closed. */
interface HugeAnswer {
  url: string;
  requests: number;
  written: number;
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * An endpoint answering its first request 500 with a body of `bytes`, streamed as the client reads it, and
 * every later one 200.
 */
async function startHugeAnswerEndpoint(bytes: number): Promise<HugeAnswer> {
  let closed!: () => void;
  const endpoint = {
    requests: 0,
    written: 0,
    closed: new Promise<void>((resolve) => (closed = resolve)),
  };
  const chunk = Buffer.alloc(64 * 1024, 'e');
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (++endpoint.requests > 1) return response.writeHead(200).end();
      response.on('close', closed);
      response.writeHead(500, { 'content-type': 'text/plain', 'content-length': String(bytes) });
      const pump = () => {
        while (endpoint.written < bytes && !response.destroyed) {
          endpoint.written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      pump();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(endpoint, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notifications`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

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

  it('fails an event answered 404 after one attempt, delivers the next ones right after, lists it and resends it', async () => {
    const resource = { type: 'payment' as const, id: randomUUID() };
    const events = [
      paymentEvent(resource, 1, 'payment.created'),
      paymentEvent(resource, 2, 'payment.awaiting_authorization'),
      paymentEvent(resource, 3, 'payment.authorized'),
    ];
    const refused = events[1]!.id;
    let refusing = true;
    const endpoint = await startWebhookReceiver((_, request) =>
      refusing && request.headers[notificationHeaders.eventId] === refused ? 404 : 200,
    );
    const requestsFor = (eventId: string) =>
      endpoint.received.filter((request) => request.headers[notificationHeaders.eventId] === eventId);
    try {
      const handing = createNotificationActivities(stack.client, stack.taskQueue, {
        endpoints: [endpoint.url],
        secrets: [merchantSecret],
      });
      for (const event of events) await handing.handOffNotification(event);

      // The 404 is final: no retry (the first would come 30 s later) holds event 3 behind it.
      await eventually(
        async () => requestsFor(events[2]!.id),
        (requests) => requests.length === 1,
      );
      expect(endpoint.received.map((request) => verifiedEvent(request).sequence)).toEqual([1, 2, 3]);
      const [refusedAt, nextAt] = [requestsFor(refused)[0]!.at, requestsFor(events[2]!.id)[0]!.at];
      expect(nextAt - refusedAt).toBeLessThan(5_000);

      const listed = await eventually(
        () => readNotificationLog(stack.client, resource),
        (log) => log.deliveries.length === 3 && log.deliveries.every((entry) => entry.status !== 'pending'),
      );
      expect(listed.endpoints).toEqual([{ endpoint: endpoint.url, delivered: 2, failed: 1, pending: 0 }]);
      expect(listed.deliveries.map((entry) => [entry.sequence, entry.status])).toEqual([
        [1, 'delivered'],
        [2, 'failed'],
        [3, 'delivered'],
      ]);
      expect(listed.deliveries[1]).toMatchObject({
        eventId: refused,
        type: 'payment.awaiting_authorization',
        endpoint: endpoint.url,
        attempts: 1,
        httpStatus: 404,
        answer: 'HTTP 404: {"ok":true}',
      });
      expect(requestsFor(refused)).toHaveLength(1);

      // Once the endpoint takes it, support sends it again: the same body, found though no memo keeps it.
      refusing = false;
      expect(await resendNotification(stack.client, stack.taskQueue, refused)).toEqual({
        workflowId: notificationsWorkflowId(resource),
        eventId: refused,
        endpoints: [endpoint.url],
      });
      const resent = await eventually(
        async () => requestsFor(refused),
        (requests) => requests.length === 2,
      );
      expect(resent[1]?.raw.toString('utf8')).toBe(resent[0]?.raw.toString('utf8'));
      const after = await eventually(
        () => readNotificationLog(stack.client, resource),
        (log) => log.deliveries[1]?.status === 'delivered',
      );
      expect(after.deliveries[1]).toMatchObject({ eventId: refused, attempts: 1, answer: 'HTTP 200' });
      expect(after.endpoints).toEqual([{ endpoint: endpoint.url, delivered: 3, failed: 1, pending: 0 }]);
      await recordHistory(stack.client, notificationsWorkflowId(resource), 'notifications-refused-resent');
    } finally {
      await endpoint.close();
    }
  });

  it('reads only the start of an answer: a 500 with a 64 MB body is cut off, and the event tried again', async () => {
    const bodyBytes = 64 * 1024 * 1024;
    const endpoint = await startHugeAnswerEndpoint(bodyBytes);
    const resource = { type: 'payment' as const, id: randomUUID() };
    try {
      // A speedup of 30 retries after 1 s instead of 30 s.
      await createNotificationActivities(stack.client, stack.taskQueue, {
        endpoints: [endpoint.url],
        secrets: [merchantSecret],
        speedup: 30,
      }).handOffNotification(paymentEvent(resource, 1, 'payment.created'));
      await endpoint.closed;
      // What the kernel's socket buffers took before the worker closed the connection, far below the body.
      expect(endpoint.written).toBeLessThan(16 * 1024 * 1024);
      const log = await eventually(
        () => readNotificationLog(stack.client, resource),
        (read) => read.deliveries[0]?.status === 'delivered',
      );
      expect(log.deliveries[0]).toMatchObject({ attempts: 2, httpStatus: 200 });
      expect(endpoint.requests).toBe(2);
    } finally {
      await stack.client.workflow
        .getHandle(notificationsWorkflowId(resource))
        .terminate('test done')
        .catch(() => undefined);
      await endpoint.close();
    }
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

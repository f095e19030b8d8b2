import { merchantSecret, verifiedEvent } from '../helpers/merchant-notifications.js';
import { randomUUID } from 'node:crypto';
import {
  notificationHeaders,
  notificationsMemoKey,
  notificationsWorkflowId,
  type NotificationLog,
} from '../../src/contract/notifications.js';
import { startPayment } from '../../src/starter/index.js';
import type { merchantNotificationsWorkflow } from '../../src/workflows/notifications/workflow.js';
import type { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { enroll, newCustomer, world, type Customer } from '../helpers/journey.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';
import {
  startWebhookReceiver,
  type ReceiverAnswer,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

describe('merchant notifications through an endpoint down for hours and for days, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  let merchant: WebhookReceiver;
  let customer: Customer;
  let enrollmentId: string;
  /** How the merchant's endpoint answers now; a test sets it. */
  let answer: (request: number) => ReceiverAnswer = () => 200;

  beforeAll(async () => {
    merchant = await startWebhookReceiver((request) => answer(request));
    stack = await startTimeSkippingStack({
      receiver: true,
      sandbox: { biometrics: { settlementDelayMs: null } },
      notifications: { endpoints: [merchant.url], secrets: [merchantSecret] },
    });
    customer = await newCustomer(stack);
    enrollmentId = (await enroll(stack, customer)).started.enrollmentId;
  });
  afterAll(async () => {
    await stack?.stop();
    await merchant?.close();
  });

  /**
   * A payment nobody authorizes: the journey notifies created and awaiting authorization, and expired at its
   * end.
   */
  const unauthorizedPayment = () =>
    startPayment(
      { ...stack, client: stack.manualTimeClient },
      {
        externalId: `notified-${randomUUID()}`,
        enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 990,
        description: 'time-skipping notifications',
        ...world(stack),
      },
    );

  const requestsFor = (paymentId: string) =>
    merchant.received
      .map((request, index) => ({ request, index, body: request.raw.toString('utf8') }))
      .filter(({ body }) => body.includes(paymentId));

  it('delivers in order once the endpoint is back hours later, the same bytes for an event id on every attempt', async () => {
    const down = new Set<number>();
    answer = (request) => {
      down.add(request);
      // A slow answer first (no answer within the attempt's timeout), then errors until the endpoint comes
      // back.
      return down.size === 1 ? 'stall' : 503;
    };
    const created = await unauthorizedPayment();
    const payment = stack.client.workflow.getHandle<typeof biometricPaymentWorkflow>(created.workflowId);
    expect(await payment.result()).toMatchObject({ outcome: 'expired' });
    await stack.skip('5 hours');
    answer = () => 200;
    const outbox = stack.client.workflow.getHandle<typeof merchantNotificationsWorkflow>(
      notificationsWorkflowId({ type: 'payment', id: created.payment.id }),
    );
    await outbox.result();

    const requests = requestsFor(created.payment.id);
    const statuses = requests.map(({ index }) => (down.has(index + 1) ? 'down' : 'up'));
    // Event 1 was tried while the endpoint was down, and again hours later: retried with backoff, not given
    // up.
    expect(statuses.filter((status) => status === 'down').length).toBeGreaterThan(3);
    const delivered = requests.filter(({ index }) => !down.has(index + 1));
    const events = delivered.map(({ request }) => verifiedEvent(request));
    expect(events.map((event) => event.type)).toEqual([
      'payment.created',
      'payment.awaiting_authorization',
      'payment.expired',
    ]);
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3]);
    // Every attempt of one event id carried the same body.
    const bodies = new Map<string, Set<string>>();
    for (const { request, body } of requests) {
      const id = String(request.headers[notificationHeaders.eventId]);
      bodies.set(id, (bodies.get(id) ?? new Set()).add(body));
    }
    expect([...bodies.values()].map((set) => set.size)).toEqual([1, 1, 1]);

    const log = (await outbox.describe()).memo?.[notificationsMemoKey] as NotificationLog;
    expect(log.deliveries[0]).toMatchObject({
      eventId: `payment:${created.payment.id}:1`,
      status: 'delivered',
      answer: 'HTTP 200',
      attempts: expect.any(Number),
    });
    expect(log.deliveries[0]?.attempts).toBeGreaterThan(3);
  }, 120_000);

  it('keeps trying for three days, then logs the event failed with the last answer', async () => {
    answer = () => 500;
    const created = await unauthorizedPayment();
    const outbox = stack.client.workflow.getHandle<typeof merchantNotificationsWorkflow>(
      notificationsWorkflowId({ type: 'payment', id: created.payment.id }),
    );
    const started = await stack.now();
    await stack.skip('2 days');
    expect((await outbox.describe()).status.name).toBe('RUNNING');
    await outbox.result();
    const ended = await stack.now();
    expect(ended.getTime() - started.getTime()).toBeGreaterThanOrEqual(3 * 24 * 3_600_000);
    const log = (await outbox.describe()).memo?.[notificationsMemoKey] as NotificationLog;
    expect(log.deliveries.map((entry) => entry.status)).toEqual(['failed', 'failed', 'failed']);
    expect(log.deliveries[0]?.answer).toMatch(/HTTP 500/);
    answer = () => 200;
  }, 120_000);
});

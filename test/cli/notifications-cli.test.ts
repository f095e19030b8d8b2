import { merchantSecret } from '../helpers/merchant-notifications.js';
import { jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { notificationHeaders, notificationsWorkflowId } from '../../src/contract/notifications.js';
import type { ResourceNotifications } from '../../src/notifications/log.js';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { enroll, eventually, newCustomer, payAndSettle } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

jest.setTimeout(cliTestTimeoutMs);

describe('bankflow notifications list and resend', () => {
  let stack: TestStack;
  let merchant: WebhookReceiver;
  let env: Record<string, string>;
  let paymentId: string;

  /** The bodies the merchant received for `eventId`, in arrival order. */
  const bodiesOf = (eventId: string) =>
    merchant.received
      .filter((request) => request.headers[notificationHeaders.eventId] === eventId)
      .map((request) => request.raw.toString('utf8'));

  beforeAll(async () => {
    merchant = await startWebhookReceiver();
    stack = await startTestStack({
      receiver: true,
      notifications: { endpoints: [merchant.url], secrets: [merchantSecret] },
    });
    env = cliEnvFor(stack);
    const customer = await newCustomer(stack);
    const enrollmentId = (await enroll(stack, customer)).result.enrollment?.id ?? '';
    const { created } = await payAndSettle(stack, customer, {
      externalId: `notified-${randomUUID()}`,
      enrollmentId,
      amountCents: 1_500,
      description: 'CLI notifications',
    });
    paymentId = created.payment.id;
    await eventually(
      async () => bodiesOf(`payment:${paymentId}:4`),
      (bodies) => bodies.length === 1,
    );
  });
  afterAll(async () => {
    await stack?.stop();
    await merchant?.close();
  });

  it("lists a payment's events and each delivery, as JSON and as a table", async () => {
    const listed = await eventually(
      async () => {
        const run = await runCli(['notifications', 'list', '--payment', paymentId], env);
        return run.code === 0 ? (JSON.parse(run.stdout) as ResourceNotifications) : undefined;
      },
      (log) => log?.deliveries.every((entry) => entry.status === 'delivered') ?? false,
      60_000,
    );
    expect(listed?.workflowId).toBe(notificationsWorkflowId({ type: 'payment', id: paymentId }));
    expect(listed?.deliveries.map((entry) => entry.type)).toEqual([
      'payment.created',
      'payment.awaiting_authorization',
      'payment.authorized',
      'payment.settled',
    ]);
    expect(listed?.deliveries[3]).toMatchObject({
      eventId: `payment:${paymentId}:4`,
      sequence: 4,
      endpoint: merchant.url,
      status: 'delivered',
      attempts: 1,
      httpStatus: 200,
      answer: 'HTTP 200',
    });
    expect(listed?.endpoints).toEqual([{ endpoint: merchant.url, delivered: 4, failed: 0, pending: 0 }]);

    const table = await runCli(['notifications', 'list', '--payment', paymentId, '--table'], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/SEQ\s+TYPE\s+ENDPOINT\s+STATUS\s+ATTEMPTS\s+ANSWER/);
    expect(table.stdout).toMatch(/4\s+payment\.settled\s+\S+\s+delivered\s+1\s+HTTP 200/);
    expect(table.stdout).toMatch(/ENDPOINT\s+DELIVERED\s+FAILED\s+PENDING\n\S+\s+4\s+0\s+0/);
  });

  it('resends an event with the same body, also once its outbox has ended', async () => {
    const eventId = `payment:${paymentId}:4`;
    const outbox = stack.client.workflow.getHandle(
      notificationsWorkflowId({ type: 'payment', id: paymentId }),
    );
    await outbox.terminate('the outbox ended');
    const resent = await runCli(['notifications', 'resend', eventId], env);
    expect(resent.code).toBe(0);
    expect(JSON.parse(resent.stdout)).toEqual({
      workflowId: outbox.workflowId,
      eventId,
      endpoints: [merchant.url],
    });
    const bodies = await eventually(
      async () => bodiesOf(eventId),
      (received) => received.length === 2,
    );
    expect(bodies[1]).toBe(bodies[0]);

    const again = await runCli(['notifications', 'resend', eventId, '--endpoint', merchant.url], env);
    expect(again.code).toBe(0);
    await eventually(
      async () => bodiesOf(eventId),
      (received) => received.length === 3,
    );
  });

  it('refuses an event id of no known shape, an unknown event, an endpoint it never went to, and a list of nothing', async () => {
    const refused = async (args: string[], reason: RegExp) => {
      const run = await runCli(['notifications', ...args], env);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(reason);
    };
    await refused(
      ['resend', 'order-1234'],
      /event id: must be an event id, <payment\|enrollment\|recurrence\|boleto>:<id>:<sequence>/,
    );
    await refused(['resend', `payment:${paymentId}:99`], /has no event payment:.*:99/);
    await refused(
      ['resend', `payment:${paymentId}:1`, '--endpoint', 'https://elsewhere.example/n'],
      /--endpoint: must be one the event went to/,
    );
    const exactlyOne =
      'give the bank id of exactly one resource: --payment <id>, --enrollment <id>, --recurrence <id>, --boleto <id>';
    await refused(['list'], new RegExp(`--payment: ${exactlyOne}`));
    await refused(
      ['list', '--boleto', randomUUID(), '--recurrence', randomUUID()],
      new RegExp(`--recurrence: ${exactlyOne}`),
    );
    await refused(['list', '--enrollment', randomUUID()], /no notification was sent for enrollment/);
    await refused(['list', '--recurrence', randomUUID()], /no notification was sent for recurrence/);
  });
});

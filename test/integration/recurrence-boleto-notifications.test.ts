import { merchantSecret, verifiedEvent } from '../helpers/merchant-notifications.js';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import {
  notificationsMemoKey,
  notificationsWorkflowId,
  type NotificationEvent,
  type NotificationLog,
} from '../../src/contract/notifications.js';
import { startTunedRecurrence } from '../../src/starter/recurrences.js';
import {
  cancelBoleto,
  cancelRecurrence,
  getRecurrence,
  runAttemptsSync,
  startRecurrence,
} from '../../src/starter/index.js';
import { control, eventually } from '../helpers/journey.js';
import { recurrenceRequest } from '../helpers/recurrences.js';
import { recordHistory } from '../helpers/replay.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js';

describe('merchant notifications of recurrences, their attempts and boletos', () => {
  let stack: TestStack;
  let merchant: WebhookReceiver;

  /**
   * The events the merchant received about `resourceId`, each checked against its signature, in arrival
   * order.
   */
  const eventsOf = (resourceId: string): NotificationEvent[] =>
    merchant.received.map(verifiedEvent).filter((event) => event.resource.id === resourceId);
  const produce = async (recurrenceId: string, attempts: Record<string, unknown>[]) =>
    (await control(stack, 'POST', `/sandbox/recurrences/${recurrenceId}/attempts`, {
      attempts,
    })) as unknown as CollectionAttempt[];
  const settle = (attemptId: string) =>
    control(stack, 'POST', `/sandbox/collection-attempts/${attemptId}/status`, { status: 'settled' });
  const quiet = () => new Promise((resolve) => setTimeout(resolve, 2_000));

  beforeAll(async () => {
    merchant = await startWebhookReceiver();
    stack = await startTestStack({
      receiver: true,
      notifications: { endpoints: [merchant.url], secrets: [merchantSecret] },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await merchant?.close();
  });

  it('posts the recurrence, then each attempt status the bank confirms, in one sequence; a sync repeating them adds none', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence } = await startRecurrence(stack, request);
    const [attempt] = await produce(recurrence.id, [
      { status: 'created', timestamp: '2030-07-01T09:00:00Z' },
    ]);
    await eventually(
      async () => eventsOf(recurrence.id),
      (events) => events.length === 2,
    );
    await settle(attempt!.id);
    const events = await eventually(
      async () => eventsOf(recurrence.id),
      (received) => received.length === 3,
    );
    expect(events.map((event) => [event.id, event.type])).toEqual([
      [`recurrence:${recurrence.id}:1`, 'recurrence.created'],
      [`recurrence:${recurrence.id}:2`, 'recurrence.attempt_created'],
      [`recurrence:${recurrence.id}:3`, 'recurrence.attempt_settled'],
    ]);
    expect(events[0]?.data).toMatchObject({
      id: recurrence.id,
      external_id: request.external_id,
      status: recurrence.status,
    });
    // The accounts behind the recurrence stay out of the merchant's notifications.
    expect(events[0]?.data).not.toHaveProperty('counterparty_bank_account_id');
    const atBank = stack.sandbox.state.bankData.attempts.get(attempt!.id);
    expect(events[2]?.data).toEqual({
      recurrence: { id: recurrence.id, external_id: request.external_id },
      attempt: expect.objectContaining({
        id: attempt!.id,
        status: 'settled',
        end_to_end_id: atBank?.end_to_end_id,
        transaction_date: atBank?.transaction_date,
      }),
    });

    // The sync reads the settled attempt from the bank's list (settling moved its time): the same status, no
    // event.
    const settledAt = Date.parse(atBank!.timestamp);
    const summary = await runAttemptsSync(stack, {
      from: new Date(settledAt).toISOString(),
      to: new Date(settledAt + 1).toISOString(),
    });
    expect(summary.attempts).toBeGreaterThanOrEqual(1);
    await eventually(
      () => getRecurrence(stack, { externalId: request.external_id }),
      (state) => state.updates.fromSync >= 1,
    );
    await quiet();
    expect(eventsOf(recurrence.id)).toHaveLength(3);
    await recordHistory(
      stack.client,
      notificationsWorkflowId({ type: 'recurrence', id: recurrence.id }),
      'notifications-recurrence',
    );
  });

  it("tells an attempt's status only once the bank's GET shows it, not when a webhook claims it", async () => {
    const request = recurrenceRequest(stack);
    const { recurrence } = await startRecurrence(stack, request);
    const [attempt] = await produce(recurrence.id, [{ status: 'created' }]);
    await eventually(
      async () => eventsOf(recurrence.id),
      (events) => events.length === 2,
    );
    await control(stack, 'PUT', '/sandbox/faults', { get_lag_ms: 5_000 });
    try {
      await settle(attempt!.id);
      const announced = await eventually(
        () => getRecurrence(stack, { externalId: request.external_id }),
        (state) => state.updates.fromWebhooks === 2,
      );
      expect(announced.awaitingConfirmation).toEqual([attempt!.id]);
      expect(eventsOf(recurrence.id).map((event) => event.type)).not.toContain('recurrence.attempt_settled');
      const confirmed = await eventually(
        async () => eventsOf(recurrence.id),
        (events) => events.length === 3,
      );
      expect(confirmed[2]).toMatchObject({ type: 'recurrence.attempt_settled', sequence: 3 });
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
  });

  it('numbers on across continue-as-new, and sends nothing for the merchant stopping it', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence, workflowId } = await startTunedRecurrence(stack, request, { maxHistoryEvents: 40 });
    for (let day = 1; day <= 6; day++) {
      await produce(recurrence.id, [{ status: 'settled', timestamp: `2030-08-0${day}T09:00:00Z` }]);
      await eventually(
        async () => eventsOf(recurrence.id),
        (events) => events.length === day + 1,
      );
    }
    const state = await getRecurrence(stack, { externalId: request.external_id });
    expect(state.runs).toBeGreaterThan(1);
    const events = eventsOf(recurrence.id);
    expect(events.map((event) => event.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(events.map((event) => event.id)).size).toBe(7);
    expect(events.slice(1).every((event) => event.type === 'recurrence.attempt_settled')).toBe(true);
    await recordHistory(stack.client, workflowId, 'recurrence-notified');

    await cancelRecurrence(stack, { externalId: request.external_id, reason: 'contrato encerrado' });
    await quiet();
    expect(eventsOf(recurrence.id)).toHaveLength(7);
  });

  it('posts boleto.cancelled once the bank shows it cancelled; cancelling again answers the same and sends nothing', async () => {
    // The last seeded boleto: no other suite cancels it (a shared Temporal server keeps every suite's
    // outboxes).
    const boletoId = [...stack.sandbox.state.boletos.values()].at(-1)!.id;
    const first = await cancelBoleto(stack, { boletoId });
    const [event] = await eventually(
      async () => eventsOf(boletoId),
      (events) => events.length === 1,
    );
    expect(event).toMatchObject({
      id: `boleto:${boletoId}:1`,
      type: 'boleto.cancelled',
      sequence: 1,
      data: { id: boletoId, status: 'cancelled', amount: first.amount, external_id: first.external_id },
    });
    expect(await cancelBoleto(stack, { boletoId })).toEqual(first);
    await quiet();
    expect(eventsOf(boletoId)).toHaveLength(1);
    const outbox = stack.client.workflow.getHandle(notificationsWorkflowId({ type: 'boleto', id: boletoId }));
    const log = (await outbox.describe()).memo?.[notificationsMemoKey] as NotificationLog;
    expect(log.deliveries).toEqual([
      expect.objectContaining({ eventId: `boleto:${boletoId}:1`, status: 'delivered', answer: 'HTTP 200' }),
    ]);

    // Once the outbox has ended (as an idle one does), a third cancel's event, the same id with a new time,
    // is found in it and handed over to no one: no new outbox run, nothing sent.
    await outbox.terminate('ended as an idle outbox ends');
    const ended = (await outbox.describe()).runId;
    expect(await cancelBoleto(stack, { boletoId })).toEqual(first);
    await quiet();
    expect(eventsOf(boletoId)).toHaveLength(1);
    expect((await outbox.describe()).runId).toBe(ended);
  });
});

import { randomUUID } from 'node:crypto';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import type { WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import { claimCashInsSignal } from '../../src/contract/cash-in-holder.js';
import { workflowIds } from '../../src/contract/ids.js';
import { paymentWebhookSignal } from '../../src/contract/temporal.js';
import { signalCashInHolder } from '../../src/webhooks/cash-in-holders.js';
import { control, eventually } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/**
 * A Pix cash-in is held under the end-to-end id it carries, and claimed by the end-to-end id of the payment
 * claiming it, never by the ids the webhook names: with every webhook naming another cash-in
 * (`webhook_foreign_id_rate`), each claim still takes exactly the event for its own end-to-end id, and leaves
 * the other held.
 */
describe('claims of held Pix cash-ins while webhooks name other resources', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
  });
  afterAll(() => stack?.stop());

  const endToEndId = (label: string) => `E${label}${Date.now()}`.padEnd(32, '0').slice(0, 32);

  async function announceCashIn(endToEnd: string): Promise<WebhookEventRecord> {
    const id = randomUUID();
    return (await control(stack, 'POST', '/sandbox/webhooks/events', {
      category: webhookCategories.collectingDocument,
      type: 'settled',
      ref_id: id,
      data: {
        id,
        end_to_end_id: endToEnd,
        status: 'settled',
        amount: { amount: 1_050, currency: 'BRL' },
        transaction_date: '2030-01-02',
      },
    })) as unknown as WebhookEventRecord;
  }

  const holder = (endToEnd: string) => stack.client.workflow.getHandle(workflowIds.cashIn(endToEnd));
  const holderStatus = (endToEnd: string) =>
    holder(endToEnd)
      .describe()
      .then(
        (description) => description.searchAttributes.BankflowStatus?.[0],
        () => 'not delivered yet',
      );

  it('claims by end-to-end id, whatever cash-in id the webhook names', async () => {
    await control(stack, 'PUT', '/sandbox/faults', { seed: 9, webhook_foreign_id_rate: 1 });
    // A claimer no worker runs: its history shows every signal the holder sends it.
    const claimer = `payment:claims-test-${randomUUID()}`;
    await stack.client.workflow.start('claimsTestTarget', {
      workflowId: claimer,
      taskQueue: `claims-idle-${randomUUID()}`,
    });
    try {
      const [first, second] = [endToEndId('11111111'), endToEndId('22222222')];
      await announceCashIn(first);
      const swapped = await announceCashIn(second);
      // The second event names the first cash-in's id, and the end-to-end id of its own.
      expect(swapped.replaced_ref_id).not.toBeNull();
      expect(swapped.envelope.ref_id).not.toBe(swapped.replaced_ref_id);
      expect(swapped.envelope.data).toMatchObject({ end_to_end_id: second });
      for (const held of [first, second])
        await eventually(
          () => holderStatus(held),
          (s) => s === 'held',
        );

      await signalCashInHolder(stack.client, stack.taskQueue, second, claimCashInsSignal, {
        claimedBy: claimer,
      });
      const signalled = async () =>
        ((await stack.client.workflow.getHandle(claimer).fetchHistory()).events ?? [])
          .map((event) => event.workflowExecutionSignaledEventAttributes?.signalName)
          .filter(Boolean);
      expect(await eventually(signalled, (names) => names.length > 0)).toEqual([paymentWebhookSignal.name]);
      expect(await holderStatus(second)).toBe('claimed');

      // The other cash-in stays held: a claim never takes an event for another end-to-end id.
      expect(await holderStatus(first)).toBe('held');
      expect(await signalled()).toHaveLength(1);
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
      await stack.client.workflow.getHandle(claimer).terminate('claims test over');
    }
  });
});

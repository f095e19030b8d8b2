import { randomUUID } from 'node:crypto';
import { createUnmatchedEventActivities } from '../../src/activities/unmatched-events.js';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import type { WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import { unmatchedWorkflowId } from '../../src/webhooks/deliver.js';
import { webhookEventKey } from '../../src/contract/webhook-events.js';
import { control, eventually } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/**
 * A Pix cash-in kept as unmatched is claimed by the end-to-end id of the payment claiming it, never by the ids the
 * webhook carries: with every webhook naming another cash-in (`webhook_foreign_id_rate`), each claim still takes
 * exactly the event for its own end-to-end id, and leaves the other unclaimed.
 */
describe('claims of unmatched Pix cash-ins while webhooks name other resources', () => {
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

  it('claims by end-to-end id, whatever cash-in id the webhook names', async () => {
    await control(stack, 'PUT', '/sandbox/faults', { seed: 9, webhook_foreign_id_rate: 1 });
    try {
      const [first, second] = [endToEndId('11111111'), endToEndId('22222222')];
      const other = await announceCashIn(first);
      const swapped = await announceCashIn(second);
      // The second event names the first cash-in's id, and the end-to-end id of its own.
      expect(swapped.replaced_ref_id).not.toBeNull();
      expect(swapped.envelope.ref_id).not.toBe(swapped.replaced_ref_id);
      expect(swapped.envelope.data).toMatchObject({ end_to_end_id: second });
      const kept = unmatchedWorkflowId(webhookEventKey(swapped.envelope));
      await eventually(
        () =>
          stack.client.workflow
            .getHandle(kept)
            .describe()
            .then(
              (description) => description.status.name,
              () => 'not delivered yet',
            ),
        (status) => status === 'RUNNING',
      );

      const { claimUnmatchedCashIns } = createUnmatchedEventActivities(stack.client);
      const claimed = await eventually(
        () => claimUnmatchedCashIns(second, 'payment:claims-test'),
        (events) => events.length > 0,
      );
      expect(claimed.map((event) => event.envelope.data)).toEqual([
        expect.objectContaining({ id: swapped.envelope.ref_id, end_to_end_id: second }),
      ]);
      const resolved = await stack.client.workflow.getHandle(kept).result();
      expect(resolved.resolution).toMatchObject({ by: 'payment:claims-test' });

      // The other cash-in stays unclaimed: a claim never takes an event for another end-to-end id.
      const otherKept = stack.client.workflow.getHandle(unmatchedWorkflowId(webhookEventKey(other.envelope)));
      expect((await otherKept.describe()).status.name).toBe('RUNNING');
      expect(await claimUnmatchedCashIns(endToEndId('33333333'), 'payment:claims-test')).toEqual([]);
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
  });
});

import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import type { cashInHolderWorkflow } from '../../src/workflows/cash-in-holder.js';
import type { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { cashInHolderTimings } from '../../src/contract/cash-in-holder.js';
import { workflowIds } from '../../src/contract/ids.js';
import { authorizePayment, getPayment, resolveUnmatchedWebhook } from '../../src/starter/index.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import { deliverWebhook, unmatchedWorkflowId } from '../../src/webhooks/deliver.js';
import { webhookEventKey } from '../../src/contract/webhook-events.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import { postSignedWebhook } from '../helpers/http.js';
import { control, eventually, world, type Customer } from '../helpers/journey.js';
import { receiverSecret } from '../helpers/stack.js';
import { startBankPlayedStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const hour = 60 * 60_000;

/**
 * A Pix cash-in reaches its payment by ids alone: the receiver holds it under its end-to-end id, the payment
 * claims that holder once the bank shows it settled. The time-skipping server answers no visibility query, so
 * nothing here can lean on one. Whenever the cash-in arrives, before, racing or after the claim, the payment
 * hears it once.
 */
describe('cash-ins claimed by end-to-end id, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  let customer: Customer;
  let enrollmentId: string;

  beforeAll(async () => {
    // The bank settles only when told, and sends no webhook of its own: the test delivers the cash-in.
    ({ stack, customer, enrollmentId } = await startBankPlayedStack());
    await control(stack, 'PUT', '/sandbox/faults', { webhook_drop_rate: 1 });
  });
  afterAll(() => stack?.stop());

  /** A payment the bank shows awaiting payment, with its end-to-end id; it waits an hour for its cash-in. */
  async function authorizedPayment() {
    const manual = { ...stack, client: stack.manualTimeClient };
    const created = await startTunedPayment(
      manual,
      {
        externalId: `pix-${randomUUID()}`,
        enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 1_050,
        description: 'cash-in claim test',
        ...world(stack),
      },
      { cashInWaitMs: hour },
    );
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(manual, { externalId: created.externalId, assertion });
    const { endToEndId } = await eventually(
      () => getPayment(manual, { externalId: created.externalId }),
      (state) => Boolean(state.endToEndId),
    );
    return { created, endToEndId: endToEndId! };
  }

  const cashIn = (endToEndId: string) => {
    const id = randomUUID();
    return {
      category: webhookCategories.collectingDocument,
      type: 'settled',
      ref_id: id,
      timestamp: new Date().toISOString(),
      data: {
        id,
        end_to_end_id: endToEndId,
        status: 'settled',
        amount: { amount: 1_050, currency: 'BRL' },
        transaction_date: null,
      },
    };
  };

  async function post(envelope: ReturnType<typeof cashIn>) {
    const answer = await postSignedWebhook(stack.receiverUrl!, JSON.stringify(envelope), receiverSecret);
    expect(answer.statusCode).toBe(202);
    const endToEndId = envelope.data.end_to_end_id;
    expect(answer.json()).toMatchObject({ delivered: 'held', workflowId: workflowIds.cashIn(endToEndId) });
  }

  const holderStatus = (endToEndId: string) =>
    stack.client.workflow
      .getHandle(workflowIds.cashIn(endToEndId))
      .describe()
      .then(
        (description) => description.searchAttributes.BankflowStatus?.[0],
        () => 'not started',
      );

  const settle = (paymentId: string) =>
    control(stack, 'POST', `/sandbox/biometrics/payments/${paymentId}/settle`, {});

  /**
   * Lets server time run until the payment, polling the bank, has seen the settlement and claimed its holder.
   */
  async function untilClaimed(endToEndId: string) {
    for (let step = 0; step < 120 && (await holderStatus(endToEndId)) !== 'claimed'; step++) {
      await stack.skip('5 seconds');
    }
    expect(await holderStatus(endToEndId)).toBe('claimed');
  }

  async function settleAndClaim(paymentId: string, endToEndId: string) {
    await settle(paymentId);
    await untilClaimed(endToEndId);
  }

  /** The payment's outcome, and its cash-in evidence; the holder's result, a day after its claim. */
  async function outcome(workflowId: string, endToEndId: string) {
    const result = await stack.client.workflow
      .getHandle<typeof biometricPaymentWorkflow>(workflowId)
      .result();
    const holder = await stack.client.workflow
      .getHandle<typeof cashInHolderWorkflow>(workflowIds.cashIn(endToEndId))
      .result();
    const heard = result.evidence.filter((item) => item.source === 'cash-in webhook');
    return { result, holder, heard };
  }

  it('hands the payment a cash-in held before the bank showed it settled', async () => {
    const { created, endToEndId } = await authorizedPayment();
    const envelope = cashIn(endToEndId);
    await post(envelope);
    expect(await holderStatus(endToEndId)).toBe('held');

    await settleAndClaim(created.payment.id, endToEndId);
    const { result, holder, heard } = await outcome(created.workflowId, endToEndId);
    expect(result).toMatchObject({ outcome: 'settled', endToEndId });
    expect(heard).toEqual([
      expect.objectContaining({ detail: `Pix cash-in ${envelope.ref_id} for ${endToEndId}` }),
    ]);
    expect(holder).toMatchObject({ claimedBy: created.workflowId, resolution: 'claimed' });
    expect(holder.events.map((event) => event.envelope.ref_id)).toEqual([envelope.ref_id]);
    expect(holder.forwarded).toEqual(holder.events.map((event) => event.key));
  });

  // Only one caller may let server time run at a time; the cash-in races the claim in real time.
  it.each([0, 20, 60])(
    'hands the payment a cash-in that races its claim, once (sent %i ms after the settlement)',
    async (delayMs) => {
      const { created, endToEndId } = await authorizedPayment();
      const envelope = cashIn(endToEndId);
      await settle(created.payment.id);
      const racing = (async () => {
        await sleep(delayMs);
        await post(envelope);
      })();
      await Promise.all([racing, untilClaimed(endToEndId)]);

      const { result, holder, heard } = await outcome(created.workflowId, endToEndId);
      expect(result).toMatchObject({ outcome: 'settled', endToEndId });
      expect(heard).toHaveLength(1);
      expect(heard[0]?.detail).toBe(`Pix cash-in ${envelope.ref_id} for ${endToEndId}`);
      expect(holder).toMatchObject({ claimedBy: created.workflowId, resolution: 'claimed' });
      expect(holder.events).toHaveLength(1);
      expect(holder.forwarded).toEqual([holder.events[0]?.key]);
    },
  );

  it('forwards a cash-in that comes after the claim, and a copy of it changes nothing', async () => {
    const { created, endToEndId } = await authorizedPayment();
    await settleAndClaim(created.payment.id, endToEndId);
    // Claimed before any cash-in came: the payment still waits for one.
    expect((await getPayment(stack, { externalId: created.externalId })).phase).toBe('settled');

    const envelope = cashIn(endToEndId);
    await post(envelope);
    // A copy through another receiver replica, which did not see the first.
    const copy = await deliverWebhook(
      stack.client,
      stack.taskQueue,
      receivedWebhook(envelope),
      bankflowRouter(envelope),
    );
    expect(copy).toEqual({ delivered: 'held', workflowId: workflowIds.cashIn(endToEndId) });

    const { result, holder, heard } = await outcome(created.workflowId, endToEndId);
    expect(result).toMatchObject({ outcome: 'settled', endToEndId });
    expect(heard).toEqual([
      expect.objectContaining({ detail: `Pix cash-in ${envelope.ref_id} for ${endToEndId}` }),
    ]);
    expect(holder).toMatchObject({ claimedBy: created.workflowId, resolution: 'claimed' });
    expect(holder.events).toHaveLength(1);
    expect(holder.forwarded).toEqual([holder.events[0]?.key]);
  });

  it('shows support a cash-in no payment claimed within the claim window, and takes its resolution', async () => {
    const endToEndId = `E99999999${Date.now()}`.padEnd(32, '0').slice(0, 32);
    const envelope = cashIn(endToEndId);
    await post(envelope);
    await stack.skip(cashInHolderTimings.claimWindow);
    await stack.skip('1 minute');
    const holder = stack.client.workflow.getHandle<typeof cashInHolderWorkflow>(
      workflowIds.cashIn(endToEndId),
    );
    expect((await holder.describe()).searchAttributes).toMatchObject({
      BankflowKind: ['webhook-unmatched'],
      BankflowStatus: ['unmatched'],
    });

    const resolution = { by: 'support', note: 'a cash-in for a payment made outside bankflow' };
    await expect(
      resolveUnmatchedWebhook(stack, { event: holder.workflowId, ...resolution }),
    ).resolves.toEqual({
      ...resolution,
      workflowId: holder.workflowId,
    });
    const result = await holder.result();
    expect(result).toMatchObject({ resolution, forwarded: [] });
    expect(result.events.map((event) => event.envelope)).toEqual([envelope]);
    expect((await holder.describe()).searchAttributes.BankflowStatus).toEqual(['resolved']);

    // A closed holder is never started again: a later cash-in for its id is kept as an event of its own.
    const late = cashIn(endToEndId);
    const answer = await postSignedWebhook(stack.receiverUrl!, JSON.stringify(late), receiverSecret);
    expect(answer.json()).toMatchObject({
      delivered: 'unmatched',
      workflowId: unmatchedWorkflowId(webhookEventKey(late)),
    });
  });

  it('hands the payment the cash-ins of a holder support already closed, from its result', async () => {
    const { created, endToEndId } = await authorizedPayment();
    const envelope = cashIn(endToEndId);
    await post(envelope);
    await stack.skip(cashInHolderTimings.claimWindow);
    await stack.skip('1 minute');
    const holder = workflowIds.cashIn(endToEndId);
    expect(await holderStatus(endToEndId)).toBe('unmatched');
    await resolveUnmatchedWebhook(stack, { event: holder, by: 'support', note: 'looked at it early' });
    await eventually(
      () => holderStatus(endToEndId),
      (status) => status === 'resolved',
    );

    await settle(created.payment.id);
    const result = await stack.client.workflow
      .getHandle<typeof biometricPaymentWorkflow>(created.workflowId)
      .result();
    expect(result).toMatchObject({ outcome: 'settled', endToEndId });
    expect(result.evidence.filter((item) => item.source === 'cash-in webhook')).toEqual([
      expect.objectContaining({ detail: `Pix cash-in ${envelope.ref_id} for ${endToEndId}` }),
    ]);
  });
});

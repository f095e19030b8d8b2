import { startTunedPayment } from '../../src/starter/payments.js';
import { randomUUID } from 'node:crypto';
import type { AuthorizeFidoAssertion } from '../../src/bank/schemas/fido.js';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import { deliverWebhook } from '../../src/webhooks/deliver.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import {
  authorizePayment,
  getAuthorizationOptions,
  getPayment,
  InvalidInputError,
  RequestRefusedError,
  startEnrollment,
  startPayment,
  waitForPaymentResult,
  type StartPaymentInput,
} from '../../src/starter/index.js';
import { workflowIds } from '../../src/contract/ids.js';
import { paymentWebhookSignal } from '../../src/contract/temporal.js';
import {
  bankFor,
  control,
  enroll,
  eventually,
  fastPolling,
  keyOf,
  newCustomer,
  world,
  type Customer,
} from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { recordHistory } from '../helpers/replay.js';
import { sendUnconfirmedSettlement } from '../helpers/unconfirmed-webhooks.js';

let sequence = 0;
const uniqueRef = (label: string) => `${label}-${Date.now()}-${++sequence}`;

function tamper(assertion: AuthorizeFidoAssertion): AuthorizeFidoAssertion {
  const signature = assertion.response.signature;
  const flipped = signature.slice(0, -2) + (signature.endsWith('AA') ? 'BA' : 'AA');
  return { ...assertion, response: { ...assertion.response, signature: flipped } };
}

describe('biometric payment workflow through the receiver and the sandbox bank', () => {
  let stack: TestStack;
  let customer: Customer;
  let enrollmentId: string;

  const paymentInput = (overrides: Partial<StartPaymentInput> = {}): StartPaymentInput => ({
    externalId: uniqueRef('pay'),
    enrollmentId,
    deviceId: customer.deviceId,
    amountCents: 12_345,
    description: 'Pedido 1234',
    ...world(stack),
    ...overrides,
  });

  const authorizeCalls = async (paymentId: string) =>
    (await control(stack, 'GET', `/sandbox/biometrics/payments/${paymentId}/authorize-calls`)) as {
      successful: number;
      refused: number;
    };

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    customer = await newCustomer(stack);
    const { result } = await enroll(stack, customer);
    enrollmentId = result.enrollment?.id ?? '';
  });
  afterAll(() => stack?.stop());

  it('pays: payment and options in one round trip, assertion, settlement confirmed by the Pix cash-in', async () => {
    const input = paymentInput();
    const created = await startPayment(stack, input);
    expect(created.workflowId).toBe(workflowIds.payment(input.externalId ?? ''));
    expect(created.payment).toMatchObject({
      amount: { amount: 12_345, currency: 'BRL' },
      external_id: input.externalId,
    });
    expect(JSON.parse(created.publicKeyEncoded)).toHaveProperty('challenge');

    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    expect(await authorizePayment(stack, { externalId: created.externalId, assertion })).toEqual({
      ok: true,
      status: 'awaiting_payment',
    });

    const result = await waitForPaymentResult(stack, { externalId: created.externalId });
    expect(result).toMatchObject({ outcome: 'settled', status: 'settled', paymentId: created.payment.id });
    expect(result.endToEndId).toMatch(/^E\d{8}\d{12}\w{11}$/);
    expect(result.transactionDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const sources = result.evidence.map((item) => item.source);
    expect(sources).toEqual(expect.arrayContaining(['create', 'authorize', 'cash-in webhook']));
    // The settlement is taken from the bank's GET that the settled webhook prompted, never from the webhook.
    expect(result.evidence).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          source: 'webhook',
          status: 'settled',
          detail: expect.stringMatching(/a hint/),
        }),
        expect.objectContaining({ source: 'poll', status: 'settled' }),
      ]),
    );

    expect(await authorizeCalls(created.payment.id)).toMatchObject({ successful: 1, refused: 0 });
    await recordHistory(stack.client, created.workflowId, 'payment-settled');
    const description = await stack.client.workflow.getHandle(created.workflowId).describe();
    expect(description.searchAttributes).toMatchObject({
      BankflowKind: ['payment'],
      BankflowStatus: ['settled'],
      BankflowExternalId: [created.externalId],
      BankflowPaymentId: [created.payment.id],
      BankflowEndToEndId: [result.endToEndId],
    });
  });

  it('joins the running payment when started twice with the same external id', async () => {
    const input = paymentInput();
    const first = await startPayment(stack, input);
    const second = await startPayment(stack, input);
    expect(second.payment.id).toBe(first.payment.id);
    const payments = (await control(
      stack,
      'GET',
      `/sandbox/biometrics/payments?enrollment_id=${enrollmentId}`,
    )) as unknown as {
      external_id: string;
    }[];
    expect(payments.filter((payment) => payment.external_id === input.externalId)).toHaveLength(1);
  });

  it('answers a tampered assertion with the reason, then authorizes a good one', async () => {
    const created = await startPayment(stack, paymentInput());
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);

    const refused = await authorizePayment(stack, {
      externalId: created.externalId,
      assertion: tamper(assertion),
    });
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.reason).toMatch(/signature/);

    const fresh = await getAuthorizationOptions(stack, { externalId: created.externalId });
    const retry = customer.authenticator.getAssertion(fresh, stack.sandbox.url);
    expect(await authorizePayment(stack, { externalId: created.externalId, assertion: retry })).toMatchObject(
      { ok: true },
    );
    expect((await waitForPaymentResult(stack, { externalId: created.externalId })).outcome).toBe('settled');
    expect(await authorizeCalls(created.payment.id)).toEqual(
      expect.objectContaining({ successful: 1, refused: 1 }),
    );
    await recordHistory(stack.client, created.workflowId, 'payment-refused-then-settled');
  });

  it('answers a repeated request with the same idempotency key once: the bank is asked once', async () => {
    const created = await startPayment(stack, paymentInput());
    const { externalId } = created;
    const options = await getAuthorizationOptions(stack, { externalId, requestId: 'options-1' });
    expect(await getAuthorizationOptions(stack, { externalId, requestId: 'options-1' })).toBe(options);
    const fresh = await getAuthorizationOptions(stack, { externalId, requestId: 'options-2' });
    expect(fresh).not.toBe(options);

    const assertion = customer.authenticator.getAssertion(fresh, stack.sandbox.url);
    const first = await authorizePayment(stack, { externalId, assertion, requestId: 'authorize-1' });
    expect(first).toEqual({ ok: true, status: expect.any(String) });
    // The same key with another body is the same request: its first answer, not a second authorize.
    expect(
      await authorizePayment(stack, { externalId, assertion: tamper(assertion), requestId: 'authorize-1' }),
    ).toEqual(first);
    expect(await authorizeCalls(created.payment.id)).toEqual(
      expect.objectContaining({ successful: 1, refused: 0 }),
    );
    expect((await getPayment(stack, { externalId })).authorizeAttempts).toBe(1);
  });

  it('takes the same assertion sent twice without a key as one request', async () => {
    const created = await startPayment(stack, paymentInput());
    const { externalId } = created;
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    const [first, second] = await Promise.all([
      authorizePayment(stack, { externalId, assertion }),
      authorizePayment(stack, { externalId, assertion }),
    ]);
    expect(first).toEqual({ ok: true, status: expect.any(String) });
    expect(second).toEqual(first);
    expect(await authorizeCalls(created.payment.id)).toEqual(
      expect.objectContaining({ successful: 1, refused: 0 }),
    );
  });

  it.each([
    ['failed', 12_391],
    ['rejected', 12_392],
  ])('ends %s when the bank says so', async (outcome, amountCents) => {
    const created = await startPayment(stack, paymentInput({ amountCents }));
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(stack, { externalId: created.externalId, assertion });
    const result = await waitForPaymentResult(stack, { externalId: created.externalId });
    expect(result).toMatchObject({ outcome, status: outcome });
    expect(result.reason).toBe(`the bank reports the payment ${outcome}`);
  });

  it('ends when the consent window closes unauthorized, and refuses a late assertion', async () => {
    await control(stack, 'PUT', '/sandbox/biometrics/settings', { consent_window_ms: 1_500 });
    try {
      // The bank rejects the payment as its window closes; its webhook sends the workflow to the bank's GET.
      const created = await startPayment(stack, paymentInput());
      const result = await waitForPaymentResult(stack, { externalId: created.externalId });
      expect(result.outcome).toBe('rejected');
      expect(result.reason).toMatch(/rejected before the customer authorized it/);
      await recordHistory(stack.client, created.workflowId, 'payment-consent-window-closed');

      const late = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      const error = await authorizePayment(stack, { externalId: created.externalId, assertion: late }).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RequestRefusedError);
      expect((error as Error).message).toBe(
        `${created.workflowId} has ended (completed) and takes no more requests`,
      );
    } finally {
      await control(stack, 'PUT', '/sandbox/biometrics/settings', { consent_window_ms: 300_000 });
    }
  });

  it('refuses to pay on an enrollment that is not authorized, with the reason', async () => {
    const other = await newCustomer(stack);
    const pending = await startEnrollment(stack, {
      ...keyOf(other),
      returnToUrl: 'https://merchant.example/x',
    });
    const error = await startPayment(
      stack,
      paymentInput({ enrollmentId: pending.enrollmentId, deviceId: other.deviceId }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRefusedError);
    expect((error as RequestRefusedError).type).toBe('EnrollmentNotAuthorized');
    expect((error as Error).message).toMatch(/is awaiting_account_holder_validation, not authorized/);
  });

  it("refuses a payment the bank refuses at its start with the bank's reason, not the closed run's", async () => {
    const error = await startPayment(stack, paymentInput({ deviceId: randomUUID() })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestRefusedError);
    expect((error as Error).message).toMatch(
      /^payment:\S+ failed: .*not found \(HTTP 404\): device \S+ not found$/,
    );
    expect((error as RequestRefusedError).type).toBe('BankNotFound');
  });

  it('validates merchant input before starting anything, naming the field', async () => {
    await expect(startPayment(stack, paymentInput({ amountCents: 10.5 }))).rejects.toThrow(
      new InvalidInputError('amountCents', 'must be a whole number of cents'),
    );
    await expect(startPayment(stack, paymentInput({ description: 'x'.repeat(141) }))).rejects.toThrow(
      /^description: /,
    );
    await expect(startPayment(stack, paymentInput({ entityId: 'e' }))).rejects.toThrow(
      /^entityId: must be a uuid/,
    );
    await expect(startPayment(stack, paymentInput({ externalId: 'has space' }))).rejects.toThrow(
      /^externalId: /,
    );
  });

  it("keeps following a payment when a signed webhook says settled but the bank's GET still awaits consent", async () => {
    const created = await startPayment(stack, paymentInput());
    const forgedEndToEndId = 'E99999999202611231200FORGEDXXXX';
    await sendUnconfirmedSettlement(stack, created.payment, enrollmentId, {
      end_to_end_id: forgedEndToEndId,
      transaction_date: '2026-11-23',
    });
    const hinted = await eventually(
      () => getPayment(stack, { externalId: created.externalId }),
      (state) => state.evidence.some((item) => item.source === 'webhook' && item.status === 'settled'),
    );
    expect(hinted).toMatchObject({ endToEndId: null, transactionDate: null });
    expect(['created', 'awaiting_consent']).toContain(hinted.phase);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const handle = stack.client.workflow.getHandle(created.workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect((await getPayment(stack, { externalId: created.externalId })).phase).toBe('awaiting_consent');

    // The customer can still authorize, and the workflow follows the money to the bank's real settlement.
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    expect(await authorizePayment(stack, { externalId: created.externalId, assertion })).toMatchObject({
      ok: true,
    });
    const result = await waitForPaymentResult(stack, { externalId: created.externalId });
    expect(result).toMatchObject({ outcome: 'settled', status: 'settled' });
    expect(result.endToEndId).not.toBe(forgedEndToEndId);
    expect(result.endToEndId).toMatch(/^E\d{8}\d{12}\w{11}$/);
  });

  it('settles on polling alone when every webhook is lost', async () => {
    stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), webhook_drop_rate: 1 });
    try {
      const created = await startTunedPayment(stack, paymentInput(), {
        polling: fastPolling,
        cashInWaitMs: 500,
      });
      const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      await authorizePayment(stack, { externalId: created.externalId, assertion });
      const result = await waitForPaymentResult(stack, { externalId: created.externalId });
      expect(result.outcome).toBe('settled');
      expect(result.evidence.map((item) => item.source)).not.toContain('webhook');
      expect(
        result.evidence.some((item) => item.source === 'poll' && /no Pix cash-in/.test(item.detail ?? '')),
      ).toBe(true);
      expect((await getPayment(stack, { externalId: created.externalId })).polls).toBeGreaterThan(0);
    } finally {
      stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), webhook_drop_rate: 0 });
    }
  });

  it('claims by id a Pix cash-in held before the bank showed the payment settled', async () => {
    stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), webhook_drop_rate: 1 });
    try {
      const created = await startTunedPayment(stack, paymentInput(), {
        polling: fastPolling,
        cashInWaitMs: 60_000,
      });
      const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      await authorizePayment(stack, { externalId: created.externalId, assertion });
      const { endToEndId } = await eventually(
        () => getPayment(stack, { externalId: created.externalId }),
        (state) => Boolean(state.endToEndId),
      );
      const cashInId = randomUUID();
      const envelope = {
        category: webhookCategories.collectingDocument,
        type: 'settled',
        ref_id: cashInId,
        timestamp: new Date().toISOString(),
        data: {
          id: cashInId,
          end_to_end_id: endToEndId,
          status: 'settled',
          amount: { amount: 12_345, currency: 'BRL' },
          transaction_date: null,
        },
      };
      const held = await deliverWebhook(
        stack.client,
        stack.taskQueue,
        receivedWebhook(envelope),
        bankflowRouter(envelope),
      );
      expect(held).toEqual({ delivered: 'held', workflowId: workflowIds.cashIn(endToEndId!) });

      const result = await waitForPaymentResult(stack, { externalId: created.externalId });
      expect(result.outcome).toBe('settled');
      expect(result.evidence).toContainEqual(
        expect.objectContaining({
          source: 'cash-in webhook',
          detail: `Pix cash-in ${cashInId} for ${endToEndId}`,
        }),
      );
      const holder = await stack.client.workflow.getHandle(held.workflowId).describe();
      expect(holder.searchAttributes).toMatchObject({
        BankflowKind: ['cash-in'],
        BankflowStatus: ['claimed'],
      });
      await recordHistory(stack.client, created.workflowId, 'payment-cash-in-claimed');
      await recordHistory(stack.client, held.workflowId, 'cash-in-holder-claimed');
    } finally {
      stack.sandbox.faults.configure({ ...stack.sandbox.faults.current(), webhook_drop_rate: 0 });
    }
  });

  it('changes nothing on duplicated and reordered webhooks', async () => {
    stack.sandbox.faults.configure({
      ...stack.sandbox.faults.current(),
      webhook_duplicate_rate: 1,
      webhook_reorder_rate: 0.5,
    });
    try {
      const created = await startPayment(stack, paymentInput());
      const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      await authorizePayment(stack, { externalId: created.externalId, assertion });
      const result = await waitForPaymentResult(stack, { externalId: created.externalId });
      expect(result.outcome).toBe('settled');
      // Every copy was acknowledged; the receiver answers most second copies from its memory of accepted
      // events, and the workflow drops by key any that reached it.
      const copies = stack.sandbox.webhooks.log
        .listAttempts({ ref_id: created.payment.id })
        .filter((attempt) => attempt.copy === 2);
      expect(copies.length).toBeGreaterThan(0);
      expect(copies.every((attempt) => attempt.status_code === 202)).toBe(true);
      const statuses = result.evidence.filter((item) => item.source === 'webhook').map((item) => item.status);
      expect(new Set(statuses).size).toBe(statuses.length);
    } finally {
      stack.sandbox.faults.configure({
        ...stack.sandbox.faults.current(),
        webhook_duplicate_rate: 0,
        webhook_reorder_rate: 0,
      });
    }
  });

  it('asks the bank at once about a settlement heard in the same workflow task as the authorize answer', async () => {
    const faults = stack.sandbox.faults.current();
    const silent = { ...faults, webhook_drop_rate: 1 };
    stack.sandbox.faults.configure(silent);
    try {
      const created = await startTunedPayment(stack, paymentInput(), { cashInWaitMs: 500 });
      const handle = stack.client.workflow.getHandle(created.workflowId);
      const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
      // A slow bank keeps the authorize call in flight while the worker stops; the stopping worker finishes
      // it, and its answer waits in history, with the webhook sent meanwhile, for the next worker's one
      // workflow task.
      stack.sandbox.faults.configure({ ...silent, latency_ms: 1_500 });
      const authorized = authorizePayment(stack, { externalId: created.externalId, assertion });
      await eventually(
        () => handle.describe(),
        (description) =>
          (description.raw.pendingActivities ?? []).some(
            (activity) => activity.activityType?.name === 'authorizeBiometricPayment',
          ),
      );
      await stack.stopWorker();
      stack.sandbox.faults.configure(silent);
      const settled = await eventually(
        () => bankFor(stack).getBiometricPayment(enrollmentId, created.payment.id),
        (payment) => payment.status === 'settled',
      );
      const envelope = {
        category: webhookCategories.initiationDocument,
        type: 'settled',
        ref_id: settled.id,
        context_type: 'enrollment',
        context_id: enrollmentId,
        timestamp: new Date().toISOString(),
        data: settled,
      };
      expect(
        await deliverWebhook(stack.client, stack.taskQueue, receivedWebhook(envelope), {
          workflowId: created.workflowId,
          signal: paymentWebhookSignal,
        }),
      ).toMatchObject({ delivered: 'signal' });
      await stack.restartWorker();

      expect(await authorized).toMatchObject({ ok: true });
      expect(await waitForPaymentResult(stack, { externalId: created.externalId })).toMatchObject({
        outcome: 'settled',
      });
      const events = (await handle.fetchHistory()).events ?? [];
      const indexOf = (found: (event: (typeof events)[number]) => boolean) => events.findIndex(found);
      const authorizeScheduled = events.find(
        (event) =>
          event.activityTaskScheduledEventAttributes?.activityType?.name === 'authorizeBiometricPayment',
      )?.eventId;
      const answer = indexOf(
        (event) =>
          String(event.activityTaskCompletedEventAttributes?.scheduledEventId) === String(authorizeScheduled),
      );
      const hint = indexOf((event) => Boolean(event.workflowExecutionSignaledEventAttributes));
      const taskStarted = (event: (typeof events)[number]) =>
        Boolean(event.workflowTaskStartedEventAttributes);
      // The case itself: no workflow task ran between the authorize's answer and the hint.
      expect(answer).toBeGreaterThan(-1);
      expect(hint).toBeGreaterThan(answer);
      expect(events.slice(answer, hint).some(taskStarted)).toBe(false);
      const firstGet = indexOf(
        (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'getBiometricPayment',
      );
      const firstPollDue = indexOf((event) => Boolean(event.timerFiredEventAttributes));
      expect(firstGet).toBeGreaterThan(hint);
      expect(firstPollDue === -1 || firstPollDue > firstGet).toBe(true);
      await recordHistory(stack.client, created.workflowId, 'payment-hint-with-authorize-answer');
    } finally {
      stack.sandbox.faults.configure(faults);
    }
  });

  it('survives the worker stopping in the middle: one payment, one authorize at the bank, one outcome', async () => {
    const created = await startPayment(stack, paymentInput());
    await stack.stopWorker();
    const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
    const pending = authorizePayment(stack, { externalId: created.externalId, assertion });
    await new Promise((resolve) => setTimeout(resolve, 500));
    await stack.restartWorker();

    expect(await pending).toMatchObject({ ok: true });
    const result = await waitForPaymentResult(stack, { externalId: created.externalId });
    expect(result.outcome).toBe('settled');
    expect(await authorizeCalls(created.payment.id)).toMatchObject({ successful: 1 });
    const runs = [];
    for await (const run of stack.client.workflow.list({ query: `WorkflowId = '${created.workflowId}'` }))
      runs.push(run);
    expect(runs).toHaveLength(1);
    await recordHistory(stack.client, created.workflowId, 'payment-worker-restarted');
  });
});

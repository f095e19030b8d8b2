import { startTunedPayment } from '../../src/starter/payments.js';
import { startTunedRecurrence } from '../../src/starter/recurrences.js';
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/common';
import {
  getRecurrence,
  RequestRefusedError,
  authorizePayment,
  startEnrollment,
  startPayment,
  waitForPaymentResult,
  startRecurrence,
  StartTermsConflictError,
  waitForEnrollment,
  type StartPaymentInput,
} from '../../src/starter/index.js';
import {
  control,
  enroll,
  eventually,
  keyOf,
  newCustomer,
  payAndSettle,
  world,
  type Customer,
} from '../helpers/journey.js';
import { recurrenceRequest, uniqueExternalId } from '../helpers/recurrences.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

describe('starts that check their terms, for payments, enrollments and recurrences', () => {
  let stack: TestStack;
  let customer: Customer;
  let enrollmentId: string;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    customer = await newCustomer(stack);
    enrollmentId = (await enroll(stack, customer)).started.enrollmentId;
  });
  afterAll(() => stack?.stop());

  const paymentInput = (overrides: Partial<StartPaymentInput> = {}): StartPaymentInput => ({
    externalId: uniqueExternalId('terms'),
    enrollmentId,
    deviceId: customer.deviceId,
    amountCents: 12_345,
    description: 'Pedido 1234',
    ...world(stack),
    ...overrides,
  });

  const conflictOf = async (start: Promise<unknown>): Promise<StartTermsConflictError> => {
    const error = await start.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(StartTermsConflictError);
    return error as StartTermsConflictError;
  };

  /** Every run of the workflow id the visibility store lists, and the one describe() answers. */
  async function runsOf(workflowId: string) {
    const listed: string[] = [];
    for await (const run of stack.client.workflow.list({ query: `WorkflowId = '${workflowId}'` }))
      listed.push(run.runId);
    const { runId } = await stack.client.workflow.getHandle(workflowId).describe();
    return { listed, latest: runId };
  }

  /** What a namespace's retention does to a closed workflow: its execution and history are gone. */
  async function forget(workflowId: string): Promise<void> {
    await stack.client.workflowService.deleteWorkflowExecution({
      namespace: stack.client.options.namespace,
      workflowExecution: { workflowId },
    });
    await eventually(
      () =>
        stack.client.workflow
          .getHandle(workflowId)
          .describe()
          .then(
            () => false,
            (error: unknown) => error instanceof WorkflowNotFoundError,
          ),
      (gone) => gone,
      60_000,
    );
  }

  const bankPaymentsWith = async (externalId: string) =>
    (
      (await control(
        stack,
        'GET',
        `/sandbox/biometrics/payments?enrollment_id=${enrollmentId}`,
      )) as unknown as { id: string; external_id: string; status: string }[]
    ).filter((payment) => payment.external_id === externalId);

  describe('payments', () => {
    it('refuses a start with other terms, naming each field, and joins one with the same terms', async () => {
      const input = paymentInput();
      const first = await startPayment(stack, input);

      const changed = await conflictOf(
        startPayment(stack, { ...input, amountCents: 999, description: 'Pedido 9999' }),
      );
      expect(changed.workflowId).toBe(first.workflowId);
      expect(changed.fields).toEqual(['amountCents', 'description']);
      expect(changed.message).toBe(
        `${first.workflowId} was started with other terms: amountCents (started with 12345, now 999), ` +
          `description (started with "Pedido 1234", now "Pedido 9999"); repeat the first start's terms to join it`,
      );
      const elsewhere = await conflictOf(
        startPayment(stack, {
          ...input,
          enrollmentId: randomUUID(),
          deviceId: randomUUID(),
          entityId: randomUUID(),
          virtualAccountId: randomUUID(),
        }),
      );
      expect(elsewhere.fields).toEqual(['deviceId', 'enrollmentId', 'entityId', 'virtualAccountId']);

      const joined = await startPayment(stack, input);
      expect(joined.payment.id).toBe(first.payment.id);
      expect(joined.result).toBeUndefined();
      expect(await bankPaymentsWith(first.externalId)).toHaveLength(1);
      const runs = await runsOf(first.workflowId);
      expect(runs.listed).toEqual([runs.latest]);
    });

    it('answers a closed payment with its first reply and result, starts no second run, and past retention the bank still holds one payment', async () => {
      const input = paymentInput();
      const externalId = input.externalId ?? '';
      const { created, result } = await payAndSettle(stack, customer, {
        externalId,
        enrollmentId,
        amountCents: input.amountCents,
        description: input.description,
      });
      const closed = await runsOf(created.workflowId);
      expect(closed.listed).toEqual([closed.latest]);

      const again = await startPayment(stack, input);
      expect(again).toMatchObject({ externalId, workflowId: created.workflowId, payment: created.payment });
      expect(again.result).toEqual(result);
      expect(again.result?.outcome).toBe('settled');
      const changed = await conflictOf(startPayment(stack, { ...input, amountCents: 1 }));
      expect(changed.fields).toEqual(['amountCents']);
      expect(await runsOf(created.workflowId)).toEqual(closed);

      // Past retention nothing is left to compare with or answer from: a new run starts, and the bank's
      // idempotency by external_id hands it the first payment instead of creating a second one. The first run
      // took the payment's Pix cash-in, so the new one waits for it in vain: 2 s here (as payAndSettle's
      // runs) rather than the minute a production run gives it. Tunings are no term, so this is
      // startPayment's path.
      await forget(created.workflowId);
      const renewed = await startTunedPayment(stack, input, { cashInWaitMs: 2_000 }).catch(
        (error: unknown) => error,
      );
      expect(renewed).toBeInstanceOf(RequestRefusedError);
      expect(renewed).toMatchObject({ type: 'PaymentAlreadyAuthorized' });
      expect((renewed as RequestRefusedError).message).toContain(created.payment.id);
      // The new run follows the bank's payment to its end instead of failing.
      expect(await waitForPaymentResult(stack, { externalId })).toMatchObject({
        outcome: 'settled',
        paymentId: created.payment.id,
        endToEndId: result.endToEndId,
      });
      expect((await bankPaymentsWith(externalId)).map((payment) => payment.id)).toEqual([created.payment.id]);
    });
  });

  describe('enrollments', () => {
    it('refuses a start with other terms, naming the fields, and joins one with the same terms', async () => {
      const other = await newCustomer(stack);
      const request = { ...keyOf(other), returnToUrl: 'https://merchant.example/enrolled' };
      const first = await startEnrollment(stack, request);

      const changed = await conflictOf(
        startEnrollment(stack, {
          ...request,
          returnToUrl: 'https://merchant.example/elsewhere',
          externalId: 'another-reference',
        }),
      );
      expect(changed.fields).toEqual(['externalId', 'returnToUrl']);
      expect(changed.message).toContain(
        'returnToUrl (started with "https://merchant.example/enrolled", now "https://merchant.example/elsewhere")',
      );
      const suggested = await conflictOf(
        startEnrollment(stack, {
          ...request,
          suggestedAccount: { ispb: '12345678', issuer: '0001', number: '123456-7' },
        }),
      );
      expect(suggested.fields).toEqual([
        'suggestedAccount.ispb',
        'suggestedAccount.issuer',
        'suggestedAccount.number',
      ]);
      expect(suggested.message).toContain('suggestedAccount.number (differs)');
      expect(suggested.message).not.toContain('123456-7');

      const joined = await startEnrollment(stack, request);
      expect(joined.enrollmentId).toBe(first.enrollmentId);
      const runs = await runsOf(first.workflowId);
      expect(runs.listed).toEqual([runs.latest]);
    });

    /** An enrollment journey the bank rejected, its workflow closed. */
    async function rejectedEnrollment() {
      const other = await newCustomer(stack);
      const request = { ...keyOf(other), returnToUrl: 'https://merchant.example/enrolled' };
      const first = await startEnrollment(stack, request);
      await control(stack, 'POST', `/sandbox/biometrics/enrollments/${first.enrollmentId}/reject`);
      expect((await waitForEnrollment(stack, keyOf(other))).outcome).toBe('rejected');
      await eventually(
        () => stack.client.workflow.getHandle(first.workflowId).describe(),
        (description) => description.status.name === 'COMPLETED',
      );
      return { other, request, first, ended: await runsOf(first.workflowId) };
    }

    const bankEnrollmentsOf = async (deviceId: string) =>
      (
        (await control(stack, 'GET', `/sandbox/biometrics/enrollments?device_id=${deviceId}`)) as unknown as {
          id: string;
        }[]
      ).map((enrollment) => enrollment.id);

    it('answers an ended enrollment with its outcome, starts no second run, and past retention the bank still holds one enrollment', async () => {
      const { other, request, first, ended } = await rejectedEnrollment();

      const again = await startEnrollment(stack, request);
      expect(again).toMatchObject({ workflowId: first.workflowId, enrollmentId: first.enrollmentId });
      expect(again.result?.outcome).toBe('rejected');
      expect(await runsOf(first.workflowId)).toEqual(ended);
      expect(ended.listed).toEqual([ended.latest]);

      await forget(first.workflowId);
      const renewed = await startEnrollment(stack, request);
      expect(renewed).toMatchObject({ enrollmentId: first.enrollmentId, status: 'rejected' });
      expect(await bankEnrollmentsOf(other.deviceId)).toEqual([first.enrollmentId]);
    });

    it('enrolls again once the journey ended, only under a new external id, which the old one no longer joins', async () => {
      const { other, request, first, ended } = await rejectedEnrollment();

      const renewed = await startEnrollment(stack, { ...request, externalId: `again-${randomUUID()}` });
      expect(renewed.result).toBeUndefined();
      expect(renewed.enrollmentId).not.toBe(first.enrollmentId);
      expect(renewed.status).toBe('awaiting_account_holder_validation');
      const runs = await runsOf(first.workflowId);
      expect(runs.latest).not.toBe(ended.latest);
      expect(runs.listed.sort()).toEqual([ended.latest, runs.latest].sort());
      expect((await bankEnrollmentsOf(other.deviceId)).sort()).toEqual(
        [first.enrollmentId, renewed.enrollmentId].sort(),
      );

      const old = await conflictOf(startEnrollment(stack, request));
      expect(old.fields).toEqual(['externalId']);
    });
  });

  describe('a flood of joins', () => {
    /** The updates a workflow's runs accepted: each join that reached the workflow is one. */
    async function acceptedUpdates(workflowId: string): Promise<number> {
      const { events } = await stack.client.workflow.getHandle(workflowId).fetchHistory();
      return (events ?? []).filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes).length;
    }

    it("answers 60 joins of a payment, 10 of them with other terms, without growing its history, and the customer's authorization still settles it", async () => {
      const input = paymentInput();
      const first = await startPayment(stack, input);
      const before = await acceptedUpdates(first.workflowId);
      const joins = await Promise.all(Array.from({ length: 50 }, () => startPayment(stack, input)));
      const conflicts = await Promise.all(
        Array.from({ length: 10 }, () => conflictOf(startPayment(stack, { ...input, amountCents: 1 }))),
      );
      expect(new Set(joins.map((joined) => joined.payment.id))).toEqual(new Set([first.payment.id]));
      expect(new Set(joins.map((joined) => joined.publicKeyEncoded))).toEqual(
        new Set([first.publicKeyEncoded]),
      );
      expect(conflicts.every((conflict) => conflict.fields.join() === 'amountCents')).toBe(true);
      expect(await acceptedUpdates(first.workflowId)).toBe(before);

      const assertion = customer.authenticator.getAssertion(first.publicKeyEncoded, stack.sandbox.url);
      await authorizePayment(stack, { externalId: first.externalId, assertion });
      expect(await waitForPaymentResult(stack, { externalId: first.externalId })).toMatchObject({
        outcome: 'settled',
      });
    });

    it('answers 50 joins of an enrollment without growing its history, and the customer goes on to register', async () => {
      const other = await newCustomer(stack);
      const request = { ...keyOf(other), returnToUrl: 'https://merchant.example/enrolled' };
      const first = await startEnrollment(stack, request);
      const before = await acceptedUpdates(first.workflowId);
      const joins = await Promise.all(Array.from({ length: 50 }, () => startEnrollment(stack, request)));
      expect(new Set(joins.map((joined) => joined.redirectUrl))).toEqual(new Set([first.redirectUrl]));
      expect(await acceptedUpdates(first.workflowId)).toBe(before);
      expect((await enroll(stack, other)).result.outcome).toBe('authorized');
    });
  });

  describe('recurrences', () => {
    const bankRecurrencesWith = (externalId: string) =>
      [...stack.sandbox.state.bankData.recurrences.values()].filter(
        (recurrence) => recurrence.external_id === externalId,
      );

    it('refuses a start with another request, naming the members and withholding personal data', async () => {
      const request = recurrenceRequest(stack);
      const first = await startRecurrence(stack, request);

      const changed = await conflictOf(
        startRecurrence(stack, {
          ...request,
          amounts: { minimum: 5_000 },
          counterparty: { ...request.counterparty, tax_number: '98765432100' },
        }),
      );
      expect(changed.workflowId).toBe(first.workflowId);
      expect(changed.fields).toEqual(['amounts.minimum', 'counterparty.tax_number']);
      expect(changed.message).toContain('amounts.minimum (started with 4990, now 5000)');
      expect(changed.message).toContain('counterparty.tax_number (differs)');
      expect(changed.message).not.toContain('98765432100');

      const joined = await startRecurrence(stack, request);
      expect(joined.recurrence.id).toBe(first.recurrence.id);
      expect(bankRecurrencesWith(request.external_id)).toHaveLength(1);
    });

    it('answers an ended recurrence with its result, starts no second run, and past retention the bank answers the first', async () => {
      // The sandbox's payer bank rejects a minimum amount whose cents end in 92, which ends the workflow.
      const request = recurrenceRequest(stack, { amounts: { minimum: 4_992 } });
      const first = await startRecurrence(stack, request);
      expect(first.recurrence.status).toBe('rejected');
      const result = await stack.client.workflow.getHandle(first.workflowId).result();
      const ended = await runsOf(first.workflowId);

      const again = await startRecurrence(stack, request);
      expect(again).toMatchObject({ workflowId: first.workflowId, recurrence: first.recurrence });
      expect(again.result).toEqual(result);
      expect(again.result?.outcome).toBe('rejected');
      expect(await runsOf(first.workflowId)).toEqual(ended);
      expect(ended.listed).toEqual([ended.latest]);

      await forget(first.workflowId);
      const renewed = await startRecurrence(stack, request);
      expect(renewed.recurrence.id).toBe(first.recurrence.id);
      expect(bankRecurrencesWith(request.external_id)).toHaveLength(1);
    });

    it('keeps its terms across continue-as-new', async () => {
      const request = recurrenceRequest(stack);
      const first = await startTunedRecurrence(stack, request, { maxHistoryEvents: 20 });
      for (let day = 1; (await getRecurrence(stack, { externalId: first.externalId })).runs < 2; day++) {
        expect(day).toBeLessThan(20);
        await control(stack, 'POST', `/sandbox/recurrences/${first.recurrence.id}/attempts`, {
          attempts: [{ status: 'settled', timestamp: `2030-06-${String(day).padStart(2, '0')}T09:00:00Z` }],
        });
        await eventually(
          () => getRecurrence(stack, { externalId: first.externalId }),
          (state) => state.updates.fromWebhooks === day,
        );
      }

      const changed = await conflictOf(startRecurrence(stack, { ...request, description: 'Outro plano' }));
      expect(changed.fields).toEqual(['description']);
      expect((await startRecurrence(stack, request)).recurrence.id).toBe(first.recurrence.id);
    });
  });
});

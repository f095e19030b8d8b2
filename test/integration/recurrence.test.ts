import { startTunedRecurrence } from '../../src/starter/recurrences.js';
import { randomUUID } from 'node:crypto';
import { WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { GenerateRecurrenceRequest } from '../../src/bank/schemas/recurrence.js';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import {
  cancelRecurrence,
  getRecurrence,
  InvalidInputError,
  RequestRefusedError,
  runAttemptsSync,
  startRecurrence,
} from '../../src/starter/index.js';
import { workflowIds } from '../../src/contract/ids.js';
import { type RecurrenceState } from '../../src/contract/recurrence.js';
import { cancelRecurrenceUpdate, recurrenceAttemptsSignal } from '../../src/contract/temporal.js';
import { memoKeys } from '../../src/contract/journeys.js';
import { postSignedWebhook } from '../helpers/http.js';
import { control, eventually } from '../helpers/journey.js';
import { recurrenceRequest, runHistoryLengths } from '../helpers/recurrences.js';
import { recordHistory } from '../helpers/replay.js';
import { receiverSecret, startTestStack, type TestStack } from '../helpers/stack.js';

describe('recurrence workflow through the receiver and the sandbox bank', () => {
  let stack: TestStack;

  const stateOf = (externalId: string) => getRecurrence(stack, { externalId });
  const until = (externalId: string, ok: (state: RecurrenceState) => boolean) =>
    eventually(() => stateOf(externalId), ok);
  const produce = async (recurrenceId: string, attempts: Record<string, unknown>[]) =>
    (await control(stack, 'POST', `/sandbox/recurrences/${recurrenceId}/attempts`, {
      attempts,
    })) as unknown as CollectionAttempt[];
  const bankRecurrencesWith = (externalId: string) =>
    [...stack.sandbox.state.bankData.recurrences.values()].filter((r) => r.external_id === externalId);

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
  });
  afterAll(() => stack?.stop());

  it('generates the recurrence from the full request, searchable by its ids, and joins a second start', async () => {
    const request = recurrenceRequest(stack);
    const started = await startRecurrence(stack, request);
    expect(started.workflowId).toBe(workflowIds.recurrence(request.external_id));
    expect(started.recurrence).toMatchObject({
      status: 'approved',
      external_id: request.external_id,
      periodicity: 'mnth',
      retry_policy: '3r_7d',
      minimum_amount: { amount: 4_990, currency: 'BRL' },
      first_payment_date: '2025-07-05T00:00:00.000Z',
    });
    expect(bankRecurrencesWith(request.external_id)).toEqual([started.recurrence]);

    const again = await startRecurrence(stack, request);
    expect(again.recurrence.id).toBe(started.recurrence.id);
    expect(bankRecurrencesWith(request.external_id)).toHaveLength(1);

    const state = await stateOf(request.external_id);
    expect(state).toMatchObject({
      phase: 'active',
      status: 'approved',
      recurrenceId: started.recurrence.id,
      attempts: [],
      runs: 1,
    });
    const description = await stack.client.workflow.getHandle(started.workflowId).describe();
    expect(description.searchAttributes).toMatchObject({
      BankflowKind: ['recurrence'],
      BankflowExternalId: [request.external_id],
      BankflowStatus: ['approved'],
      BankflowRecurrenceId: [started.recurrence.id],
    });
  });

  it('publishes its summary in the memo, and reads its attempts only once no workflow task is pending', async () => {
    const request = recurrenceRequest(stack);
    const started = await startRecurrence(stack, request);
    const handle = stack.client.workflow.getHandle(started.workflowId);
    expect((await handle.describe()).memo?.[memoKeys.state]).toMatchObject({
      phase: 'active',
      recurrenceId: started.recurrence.id,
    });

    const attempt = {
      id: randomUUID(),
      collectionId: randomUUID(),
      status: 'created',
      timestamp: new Date().toISOString(),
      type: 'first',
      dueDate: '2025-07-05',
      endToEndId: null,
      transactionDate: null,
      sources: [],
    };
    await stack.stopWorker();
    let read: RecurrenceState | undefined;
    let workerBack = false;
    try {
      await handle.signal(recurrenceAttemptsSignal, { source: 'sync', attempts: [attempt] });
      const reading = stateOf(request.external_id).then((state) => (read = state));
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(read).toBeUndefined();
      await stack.restartWorker();
      workerBack = true;
      await reading;
    } finally {
      if (!workerBack) await stack.restartWorker();
    }
    // What the query answered had been committed: the memo, written only by completed tasks, already shows
    // it.
    expect(read?.attempts.map(({ id }) => id)).toEqual([attempt.id]);
    expect((await handle.describe()).memo?.[memoKeys.state]).toMatchObject({ updates: { applied: 1 } });
  });

  it('refuses an invalid request before any call, naming the field', async () => {
    const valid = recurrenceRequest(stack);
    const cases: [GenerateRecurrenceRequest, string][] = [
      [
        { ...valid, counterparty: { ...valid.counterparty, tax_number: '123' } },
        'counterparty.tax_number: must be 11 (CPF) or 14 (CNPJ) digits',
      ],
      [
        {
          ...valid,
          counterparty: { ...valid.counterparty, bank_account: { branch: '1', ispb: '123', number: '9' } },
        },
        'counterparty.bank_account.ispb: must be 8 digits',
      ],
      [
        {
          ...valid,
          first_payment: { amount: 100, due_detail: { due_date: '2025-07-05', discount_amounts: [1] } },
        },
        'first_payment.due_detail.discount_dates: must have one date per entry of discount_amounts',
      ],
      [{ ...valid, virtual_account_id: 'account-1' }, 'virtual_account_id: must be a uuid'],
    ];
    for (const [request, message] of cases) {
      await expect(startRecurrence(stack, request)).rejects.toThrow(message);
    }
    const error = await startRecurrence(stack, {
      ...valid,
      periodicity: 'daily',
    } as unknown as GenerateRecurrenceRequest).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidInputError);
    expect((error as InvalidInputError).field).toBe('periodicity');

    await expect(
      stack.client.workflow.getHandle(workflowIds.recurrence(valid.external_id)).describe(),
    ).rejects.toBeInstanceOf(WorkflowNotFoundError);
    expect(bankRecurrencesWith(valid.external_id)).toHaveLength(0);
  });

  it("fails with the bank's reason when the bank refuses the request", async () => {
    const request = recurrenceRequest(stack, { virtual_account_id: '00000000-0000-4000-8000-000000000000' });
    const error = await startRecurrence(stack, request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestRefusedError);
    expect((error as RequestRefusedError).type).toBe('RecurrenceRefused');
    expect((error as Error).message).toMatch(/virtual_account_id.*does not belong to this organisation/);
    const handle = stack.client.workflow.getHandle(workflowIds.recurrence(request.external_id));
    const failed = await handle.result().catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WorkflowFailedError);
    expect((failed as WorkflowFailedError).cause).toMatchObject({
      type: 'RecurrenceRefused',
      message: expect.stringMatching(/^the bank did not generate the recurrence: /),
    });
    expect((await handle.describe()).searchAttributes).toMatchObject({ BankflowStatus: ['refused'] });
  });

  it('waits out refused credentials while the bank generates it (a rotation), creating it once', async () => {
    const request = recurrenceRequest(stack);
    await control(stack, 'POST', '/sandbox/faults/rules', {
      fail_next: [{ status: 401, count: 2, method: 'POST', path_prefix: '/banking/cashin/pix/recurrences' }],
    });
    const started = await startRecurrence(stack, request);
    expect(started.recurrence).toMatchObject({ external_id: request.external_id });
    expect(await stateOf(request.external_id)).toMatchObject({ status: started.recurrence.status });
  });

  it('ends at once when the bank answers the recurrence rejected', async () => {
    const request = recurrenceRequest(stack, { amounts: { minimum: 4_992 } });
    const started = await startRecurrence(stack, request);
    expect(started.recurrence.status).toBe('rejected');
    const result = await stack.client.workflow.getHandle(started.workflowId).result();
    expect(result).toMatchObject({
      outcome: 'rejected',
      reason: 'the bank reports the recurrence rejected',
      recurrence: { id: started.recurrence.id },
    });
    expect(await stateOf(request.external_id)).toMatchObject({ phase: 'rejected', status: 'rejected' });
  });

  it('takes attempts from webhooks and the sync without duplicates, and never lets an older status win', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence } = await startRecurrence(stack, request);
    const [failed, created] = await produce(recurrence.id, [
      { status: 'failed', timestamp: '2030-03-10T09:00:00Z' },
      { status: 'created', timestamp: '2030-03-10T10:00:00Z' },
    ]);
    const fromWebhooks = await until(request.external_id, (state) => state.attempts.length === 2);
    expect(fromWebhooks.attempts.map((a) => [a.id, a.status, a.sources])).toEqual([
      [created!.id, 'created', ['webhook']],
      [failed!.id, 'failed', ['webhook']],
    ]);

    const summary = await runAttemptsSync(stack, {
      from: '2030-03-10T00:00:00Z',
      to: '2030-03-11T00:00:00Z',
    });
    expect(summary).toMatchObject({ attempts: 2, recurrencesUpdated: 1, unknownAttempts: 0 });
    const afterSync = await until(request.external_id, (state) => state.updates.fromSync === 2);
    expect(afterSync.attempts.map((a) => [a.id, a.status, a.sources])).toEqual([
      [created!.id, 'created', ['webhook', 'sync']],
      [failed!.id, 'failed', ['webhook', 'sync']],
    ]);
    expect(afterSync.updates).toMatchObject({ applied: 2, duplicates: 2, stale: 0, fromWebhooks: 2 });
    expect(afterSync.attemptsByStatus).toEqual({ created: 1, failed: 1 });

    // The bank announces `created`, then `settled`; the `created` webhook is held back and arrives last.
    await control(stack, 'PUT', '/sandbox/faults', { webhook_delay_ms: 1_500 });
    const [late] = await produce(recurrence.id, [{ status: 'created' }]);
    await control(stack, 'PUT', '/sandbox/faults', {});
    await control(stack, 'POST', `/sandbox/collection-attempts/${late!.id}/status`, { status: 'settled' });
    // Each webhook makes the workflow read the attempt; the late `created` one reads `settled` and changes
    // nothing.
    const settled = await until(
      request.external_id,
      (state) => state.updates.fromWebhooks === 4 && state.awaitingConfirmation === undefined,
    );
    expect(settled.attempts.find((a) => a.id === late!.id)).toMatchObject({
      status: 'settled',
      sources: ['webhook'],
      endToEndId: stack.sandbox.state.bankData.attempts.get(late!.id)?.end_to_end_id,
    });
    expect(settled.updates).toMatchObject({ stale: 0 });
    expect(settled.attemptsByStatus).toEqual({ created: 1, failed: 1, settled: 1 });
    await recordHistory(stack.client, workflowIds.recurrence(request.external_id), 'recurrence-attempts');
  });

  it('keeps an attempt webhook without external_id as unmatched: no search finds its recurrence', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence } = await startRecurrence(stack, request);
    const [attempt] = await produce(recurrence.id, [
      { status: 'settled', timestamp: '2030-04-01T09:00:00Z' },
    ]);
    const before = await until(request.external_id, (state) => state.attempts.length === 1);

    const data: Partial<CollectionAttempt> = { ...attempt!, id: '7d3f5b1a-2c4e-4f6a-8b9c-0d1e2f3a4b5c' };
    delete data.external_id;
    const body = JSON.stringify({
      category: webhookCategories.recurrenceCollectionAttempt,
      type: 'settled',
      ref_id: data.id,
      timestamp: '2030-04-01T09:00:01.000Z',
      data,
    });
    const answer = await postSignedWebhook(stack.receiverUrl!, body, receiverSecret);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toMatchObject({ delivered: 'unmatched' });
    // The bank's own webhooks carry the recurrence's external_id; the recurrence heard nothing of this one.
    const state = await until(request.external_id, (s) => s.attempts.length === 1);
    expect(state.updates.fromWebhooks).toBe(before.updates.fromWebhooks);
    expect(state.attempts.map((a) => a.id)).toEqual([attempt!.id]);
  });

  it("holds an attempt only as far as the bank's GET confirms it while the bank's reads lag its webhooks", async () => {
    const request = recurrenceRequest(stack);
    const { recurrence } = await startRecurrence(stack, request);
    const [attempt] = await produce(recurrence.id, [{ status: 'created' }]);
    await until(request.external_id, (state) => state.attempts.length === 1);

    await control(stack, 'PUT', '/sandbox/faults', { get_lag_ms: 5_000 });
    try {
      await control(stack, 'POST', `/sandbox/collection-attempts/${attempt!.id}/status`, {
        status: 'settled',
      });
      const announced = await until(request.external_id, (state) => state.updates.fromWebhooks === 2);
      // The webhook says settled; the bank's GET still shows created, so created it stays, with no end-to-end
      // id.
      expect(announced.attempts).toEqual([
        expect.objectContaining({
          id: attempt!.id,
          status: 'created',
          endToEndId: null,
          transactionDate: null,
        }),
      ]);
      expect(announced.awaitingConfirmation).toEqual([attempt!.id]);

      const confirmed = await until(request.external_id, (state) => state.awaitingConfirmation === undefined);
      const atBank = stack.sandbox.state.bankData.attempts.get(attempt!.id);
      expect(confirmed.attempts).toEqual([
        expect.objectContaining({
          status: 'settled',
          endToEndId: atBank?.end_to_end_id,
          transactionDate: atBank?.transaction_date,
        }),
      ]);
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
  });

  it('never holds the attempt a webhook names when the bank says it is another recurrence’s', async () => {
    const other = await startRecurrence(stack, recurrenceRequest(stack));
    await produce(other.recurrence.id, [{ status: 'settled' }]);
    const request = recurrenceRequest(stack);
    const { recurrence } = await startRecurrence(stack, request);

    await control(stack, 'PUT', '/sandbox/faults', { seed: 3, webhook_foreign_id_rate: 1 });
    try {
      const [attempt] = await produce(recurrence.id, [{ status: 'settled' }]);
      const sent = stack.sandbox.webhooks.log
        .listEvents()
        .find((event) => event.replaced_ref_id === attempt!.id);
      expect(sent?.envelope.ref_id).not.toBe(attempt!.id);
      const state = await until(request.external_id, (s) => s.updates.ignored === 1);
      expect(state.updates.fromWebhooks).toBe(1);
      expect(state.attempts).toEqual([]);
      expect(state.awaitingConfirmation).toBeUndefined();
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
  });

  it('continues as new past its event threshold, carrying and archiving its attempts', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence, workflowId } = await startTunedRecurrence(stack, request, {
      maxHistoryEvents: 40,
      maxAttemptsKept: 5,
    });
    for (let day = 1; day <= 12; day++) {
      const timestamp = `2030-05-${String(day).padStart(2, '0')}T09:00:00Z`;
      await produce(recurrence.id, [{ status: day % 3 === 0 ? 'failed' : 'settled', timestamp }]);
      await until(
        request.external_id,
        (state) => state.updates.fromWebhooks === day && state.awaitingConfirmation === undefined,
      );
    }
    const state = await stateOf(request.external_id);
    expect(state.runs).toBeGreaterThan(1);
    expect(state.attemptsByStatus).toEqual({ settled: 8, failed: 4 });
    expect(state.attempts.map((a) => a.timestamp.slice(0, 10))).toEqual([
      '2030-05-12',
      '2030-05-11',
      '2030-05-10',
      '2030-05-09',
      '2030-05-08',
    ]);
    expect(state.archived).toEqual({
      count: 7,
      byStatus: { settled: 5, failed: 2 },
      through: '2030-05-07T09:00:00.000Z',
    });

    // A sync of the same days brings every attempt again: nothing is counted twice, archived or listed.
    const summary = await runAttemptsSync(stack, {
      from: '2030-05-01T00:00:00Z',
      to: '2030-05-13T00:00:00Z',
    });
    expect(summary.attempts).toBe(12);
    const synced = await until(request.external_id, (s) => s.updates.fromSync === 12);
    expect(synced.updates.duplicates).toBe(12);
    expect(synced.attemptsByStatus).toEqual({ settled: 8, failed: 4 });

    // The task that applies the last batch may also continue the workflow as new, so the runs listed and the
    // runs the state counts are compared from reads made together.
    const { lengths } = await eventually(
      async () => ({
        lengths: await runHistoryLengths(stack.client, workflowId),
        runs: (await stateOf(request.external_id)).runs,
      }),
      ({ lengths, runs }) => lengths.length === runs,
    );
    expect(lengths.length).toBeGreaterThanOrEqual(synced.runs);
    // The threshold is checked between reads: past it by one read (about ten events), the hand-over of its
    // notification and of one still in flight (six each), and workflow tasks timing out on a loaded machine
    // (66 seen).
    for (const length of lengths) expect(length).toBeLessThanOrEqual(40 + 40);
    // Its latest run: a table carried with its archive, then the sync's attempts taken as archived or listed.
    await recordHistory(stack.client, workflowId, 'recurrence-archived');
    const description = await stack.client.workflow.getHandle(workflowId).describe();
    expect(description.searchAttributes).toMatchObject({
      BankflowKind: ['recurrence'],
      BankflowRecurrenceId: [recurrence.id],
    });
  });

  it('ends through a cancel with a reason; a bad reason is refused naming it, and so is a cancel once ended', async () => {
    const request = recurrenceRequest(stack);
    const externalId = request.external_id;
    const { recurrence, workflowId } = await startRecurrence(stack, request);
    const handle = stack.client.workflow.getHandle(workflowId);

    await expect(cancelRecurrence(stack, { externalId, reason: '  ' })).rejects.toThrow(
      new InvalidInputError('reason', 'required, a non-empty text saying why'),
    );
    // The workflow's validator refuses a caller that does not go through the starter, and writes nothing.
    const refusedBy = (reason: unknown) =>
      handle.executeUpdate(cancelRecurrenceUpdate, { args: [{ reason } as { reason: string }] }).then(
        () => 'accepted',
        (error: unknown) =>
          error instanceof WorkflowUpdateFailedError ? error.cause?.message : String(error),
      );
    expect(await refusedBy(undefined)).toBe(
      'reason: required, a non-empty text saying why the recurrence is cancelled',
    );
    expect(await refusedBy(' ')).toBe(
      'reason: required, a non-empty text saying why the recurrence is cancelled',
    );
    expect(await refusedBy('x'.repeat(501))).toBe('reason: at most 500 characters, got 501');
    const events = (await handle.fetchHistory()).events ?? [];
    expect(events.filter((event) => event.workflowExecutionUpdateAcceptedEventAttributes)).toHaveLength(1);

    const result = await cancelRecurrence(stack, { externalId, reason: 'customer ended the contract' });
    expect(result).toMatchObject({
      outcome: 'stopped',
      recurrence: { id: recurrence.id, status: 'approved' },
    });
    expect(result.reason).toMatch(/^cancelled by the merchant: customer ended the contract\. /);
    expect(await handle.result()).toEqual(result);
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    expect(await stateOf(externalId)).toMatchObject({ phase: 'stopped', status: 'approved' });
    // The bank's API has no cancel: its record of the recurrence is what it was.
    expect(bankRecurrencesWith(externalId)).toEqual([recurrence]);

    await expect(cancelRecurrence(stack, { externalId, reason: 'again' })).rejects.toThrow(
      new RequestRefusedError(workflowId, `${workflowId} has ended (completed) and takes no more requests`),
    );
    // A recurrence the bank rejected ended at once: there is nothing to cancel.
    const rejected = recurrenceRequest(stack, { amounts: { minimum: 4_992 } });
    await startRecurrence(stack, rejected);
    await expect(
      cancelRecurrence(stack, { externalId: rejected.external_id, reason: 'too late' }),
    ).rejects.toThrow(RequestRefusedError);
    await recordHistory(stack.client, workflowId, 'recurrence-cancelled');
  });
});

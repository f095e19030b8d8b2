import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { developmentSupportLookupSecret } from '../../src/config.js';
import { customerKey } from '../../src/starter/customer-key.js';
import { startEnrollment } from '../../src/starter/index.js';
import { registerCredentialUpdate } from '../../src/workflows/enrollment/definitions.js';
import { failureTypes } from '../../src/workflows/failure-types.js';
import { workflowIds } from '../../src/workflows/ids.js';
import {
  resolveUnmatchedWebhookSignal,
  unmatchedWebhookWorkflow,
} from '../../src/workflows/unmatched-webhook.js';
import { enroll, eventually, keyOf, newCustomer, payAndSettle } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

/** Every string and every byte string (as latin1) in a history, as the server stores it. */
function rawText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(rawText).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(rawText).join('\n');
  return '';
}

describe('customer data in Temporal histories', () => {
  let stack: TestStack;
  let raw: Client;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    raw = new Client({
      connection: await Connection.connect({ address: process.env[testEnvKeys.address] ?? '' }),
      namespace: process.env[testEnvKeys.namespace],
    });
  });
  afterAll(async () => {
    await raw?.connection.close();
    await stack?.stop();
  });

  it('is unreadable in the raw history, memo and search attributes of an enrollment and a payment, and readable through the codec', async () => {
    const customer = await newCustomer(stack);
    // The starter keeps the customer's tax number only as its keyed hash, for support staff to search.
    const starter = { ...stack, customerKeySecret: developmentSupportLookupSecret };
    const customerTaxNumber = '123.456.789-09';
    const { result } = await enroll(starter, customer, { customerTaxNumber });
    const accountNumber = result.enrollment?.account_info?.number ?? '';
    const externalId = `enc-${Date.now()}`;
    const { created, assertion } = await payAndSettle(starter, customer, {
      externalId,
      customerTaxNumber,
      enrollmentId: result.enrollment?.id ?? '',
      amountCents: 4_200,
      description: 'Pedido confidencial',
    });

    const secrets = [
      '12345678909',
      'Maria Silva',
      accountNumber,
      assertion.response.signature,
      'Pedido confidencial',
    ];
    for (const workflowId of [
      workflowIds.enrollment(customer.deviceId, customer.participantId),
      workflowIds.payment(externalId),
    ]) {
      const history = rawText(await raw.workflow.getHandle(workflowId).fetchHistory());
      expect(history).toContain('binary/encrypted');
      for (const secret of secrets) expect(history).not.toContain(secret);
      // The memo the merchant's reads come from, as the server hands it out.
      const { workflowExecutionInfo } = await raw.workflowService.describeWorkflowExecution({
        namespace: raw.options.namespace,
        execution: { workflowId },
      });
      const memo = rawText(workflowExecutionInfo?.memo);
      expect(memo).toContain('binary/encrypted');
      for (const secret of secrets) expect(memo).not.toContain(secret);
      // Search attributes are not encrypted: the customer is there only as the key.
      const indexed = rawText(workflowExecutionInfo?.searchAttributes);
      expect(indexed).toContain(customerKey(developmentSupportLookupSecret, '12345678909'));
      for (const secret of [...secrets, customerTaxNumber]) expect(indexed).not.toContain(secret);
      for (const secret of [...secrets, customerTaxNumber]) expect(history).not.toContain(secret);
    }
    const readable = JSON.stringify(
      await stack.client.workflow.getHandle(workflowIds.payment(externalId)).result(),
    );
    expect(readable).toContain(created.payment.id);
  });

  describe('a client without the codec', () => {
    /** The workflow tasks that failed in the workflow's history: a refusal must never stall the workflow. */
    const failedTasks = async (workflowId: string) =>
      ((await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? []).filter(
        (event) => event.workflowTaskFailedEventAttributes,
      );
    const forgedAssertion = {
      id: 'AAAA',
      raw_id: 'AAAA',
      type: 'public-key' as const,
      response: { attestation_object: 'AAAA', client_data_JSON: 'AAAA' },
    };
    const refusal = (what: string) =>
      new RegExp(`^refused ${what}: its payload is not encrypted \\(encoding "json/plain"\\)`);
    const forgedEvent = (id: string) => ({
      key: `forged:${id}`,
      envelope: {
        category: 'forged',
        type: 'settled',
        ref_id: id,
        timestamp: new Date().toISOString(),
        data: {},
      },
      receivedAt: new Date().toISOString(),
    });

    it("cannot start a workflow on bankflow's task queue: the run fails at once, refusing the plaintext input", async () => {
      const workflowId = `plaintext-start-${randomUUID()}`;
      await raw.workflow.start(unmatchedWebhookWorkflow, {
        workflowId,
        taskQueue: stack.taskQueue,
        args: [forgedEvent(workflowId)],
      });
      const failure = await stack.client.workflow
        .getHandle(workflowId)
        .result()
        .then(
          () => undefined,
          (error: unknown) => (error instanceof WorkflowFailedError ? error.cause : error),
        );
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: failureTypes.plaintextRefused, nonRetryable: true });
      expect((failure as ApplicationFailure).message).toMatch(refusal('the workflow input'));
      expect(await failedTasks(workflowId)).toEqual([]);
    });

    it('cannot signal a running workflow: the signal is dropped, and the workflow goes on', async () => {
      const workflowId = `plaintext-signal-${randomUUID()}`;
      const handle = await stack.client.workflow.start(unmatchedWebhookWorkflow, {
        workflowId,
        taskQueue: stack.taskQueue,
        args: [forgedEvent(workflowId)],
      });
      try {
        await raw.workflow
          .getHandle(workflowId)
          .signal(resolveUnmatchedWebhookSignal, { by: 'intruder', note: 'plaintext' });
        // Once a workflow task completed after the forged signal, the workflow has handled it.
        await eventually(
          async () => {
            const events = (await handle.fetchHistory()).events ?? [];
            const signalled = events.findIndex((event) => event.workflowExecutionSignaledEventAttributes);
            return (
              signalled >= 0 && events.slice(signalled).some((e) => e.workflowTaskCompletedEventAttributes)
            );
          },
          (handled) => handled,
        );
        // Taking the forged resolution would have closed the workflow.
        expect((await handle.describe()).status.name).toBe('RUNNING');
        expect(await failedTasks(workflowId)).toEqual([]);
        await handle.signal(resolveUnmatchedWebhookSignal, { by: 'ana', note: 'checked' });
        expect((await handle.result()).resolution).toEqual({ by: 'ana', note: 'checked' });
      } finally {
        await handle.terminate('test over').catch(() => undefined);
      }
    });

    it('cannot send an update: it is rejected to its caller, and the workflow goes on', async () => {
      const customer = await newCustomer(stack);
      const started = await startEnrollment(stack, {
        ...keyOf(customer),
        returnToUrl: 'https://merchant.example/plaintext',
      });
      const handle = stack.client.workflow.getHandle(started.workflowId);
      try {
        const rejected = await raw.workflow
          .getHandle(started.workflowId)
          .executeUpdate(registerCredentialUpdate, { args: [{ assertion: forgedAssertion }] })
          .then(
            () => undefined,
            (error: unknown) => error,
          );
        expect(rejected).toBeInstanceOf(WorkflowUpdateFailedError);
        expect((rejected as WorkflowUpdateFailedError).cause?.message).toMatch(
          refusal('the update registerCredential'),
        );
        expect((await handle.describe()).status.name).toBe('RUNNING');
        expect(await failedTasks(started.workflowId)).toEqual([]);
      } finally {
        await handle.terminate('test over');
      }
    });
  });
});

import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowFailedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, type Payload } from '@temporalio/common';
import type { temporal } from '@temporalio/proto';
import { createCodecServer } from '../../src/codec-server/app.js';
import { developmentSupportLookupSecret } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { customerKey } from '../../src/starter/customer-key.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import {
  cancelBoleto,
  getRegistrationOptions,
  registerCredential,
  startEnrollment,
  waitForEnrollment,
} from '../../src/starter/index.js';
import { enrollmentWebhookSignal, registerCredentialUpdate } from '../../src/contract/temporal.js';
import { failureTypes } from '../../src/contract/journeys.js';
import { workflowIds } from '../../src/contract/ids.js';
import { resolveUnmatchedWebhookSignal } from '../../src/contract/unmatched-webhook.js';
import { refundReport } from '../../src/workflows/index.js';
import { unmatchedWebhookWorkflow } from '../../src/workflows/unmatched-webhook.js';
import {
  UndecodableCodec,
  undecodableKinds,
  type UndecodableKind,
} from '../../bench/chaos/hostile-payloads.js';
import {
  control,
  enroll,
  eventually,
  keyOf,
  newCustomer,
  payAndSettle,
  waitForPhase,
} from '../helpers/journey.js';
import { encryptionKeys, startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';

/** Every string and every byte string (as latin1) in a history, as the server stores it. */
function rawText(value: unknown): string {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('latin1');
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(rawText).join('\n');
  if (value && typeof value === 'object') return Object.values(value).map(rawText).join('\n');
  return '';
}

type ProtoFailure = temporal.api.failure.v1.IFailure;

/** Every failure a history holds, each cause too, as the server stores them. */
function failuresIn(value: unknown): ProtoFailure[] {
  if (!value || typeof value !== 'object' || value instanceof Uint8Array) return [];
  if (Array.isArray(value)) return value.flatMap(failuresIn);
  return Object.entries(value).flatMap(([key, inner]) =>
    key === 'failure' || key === 'cause' ? [inner as ProtoFailure, ...failuresIn(inner)] : failuresIn(inner),
  );
}

/** A stack frame (`    at fn (file.ts:12:3)`) or a source position, in clear. */
const stackTraceText = /\n\s+at |\.[cm]?[jt]s:\d+/;

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

  describe("a failure's message and stack trace", () => {
    /**
     * Whether `failure` is one a worker wrote: its message and stack trace stand in a payload, none in clear.
     */
    const expectEncoded = (failure: ProtoFailure) => {
      expect(failure.message).toBe('Encoded failure');
      expect(failure.stackTrace ?? '').toBe('');
      expect(failure.encodedAttributes?.metadata?.encoding).toEqual(Buffer.from('binary/encrypted'));
    };

    it("are unreadable in the raw history of a journey the bank refused, and readable with the key: the client's and the codec server's", async () => {
      // Unknown to the bank: it answers 404 "boleto <id> not found", and the cancel fails with that text.
      const boletoId = randomUUID();
      const workflowId = workflowIds.boletoCancel(boletoId);
      const failed = await cancelBoleto(stack, { boletoId }).then(
        () => undefined,
        (error: unknown) => error,
      );
      const bankText = ['not found (HTTP 404)', `boleto ${boletoId} not found`];

      const history = await raw.workflow.getHandle(workflowId).fetchHistory();
      const text = rawText(history);
      for (const secret of [...bankText, 'HTTP 404', 'cancelBoleto:', 'BankNotFoundError']) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(stackTraceText);
      const refused = (history.events ?? []).find((event) => event.activityTaskFailedEventAttributes)
        ?.activityTaskFailedEventAttributes?.failure;
      expect(refused?.applicationFailureInfo?.type).toBe('BankNotFound');
      const written = failuresIn(history).filter((failure) => failure.encodedAttributes);
      expect(written.length).toBeGreaterThan(0);
      for (const failure of written) expectEncoded(failure);
      expectEncoded(refused as ProtoFailure);

      // The merchant's client holds the key: the failure reads as the bank wrote it, stack trace included.
      expect(failed).toBeInstanceOf(WorkflowFailedError);
      const activity = (failed as WorkflowFailedError).cause;
      expect(activity).toBeInstanceOf(ActivityFailure);
      const bankFailure = (activity as ActivityFailure).cause;
      expect(bankFailure).toBeInstanceOf(ApplicationFailure);
      for (const secret of bankText) expect(bankFailure?.message).toContain(secret);
      expect(bankFailure?.stack).toMatch(stackTraceText);

      // The Temporal UI sends a failure's encoded attributes to the codec server, as any payload, and shows
      // what comes back: support staff with a codec credential read the bank's message.
      const codecServer = createCodecServer({
        codec: new EncryptionCodec(encryptionKeys, 'pass'),
        auth: { users: [], tokens: ['support-token'] },
        corsOrigins: [],
        logger: createLogger('silent'),
      });
      const codecUrl = await codecServer.listen({ host: '127.0.0.1', port: 0 });
      try {
        const attributes = refused?.encodedAttributes as Payload;
        const response = await fetch(`${codecUrl}/decode`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer support-token' },
          body: JSON.stringify({
            payloads: [
              {
                metadata: Object.fromEntries(
                  Object.entries(attributes.metadata ?? {}).map(([key, value]) => [
                    key,
                    Buffer.from(value ?? []).toString('base64'),
                  ]),
                ),
                data: Buffer.from(attributes.data ?? []).toString('base64'),
              },
            ],
          }),
        });
        expect(response.status).toBe(200);
        const { payloads } = (await response.json()) as { payloads: { data: string }[] };
        const shown = JSON.parse(Buffer.from(payloads[0]?.data ?? '', 'base64').toString()) as {
          message: string;
          stack_trace: string;
        };
        for (const secret of bankText) expect(shown.message).toContain(secret);
        expect(shown.stack_trace).toMatch(stackTraceText);
      } finally {
        await codecServer.close();
      }
    });

    it("are unreadable in the raw history when the workflow's own code fails it, and readable with the key", async () => {
      const workflowId = `test-failure-text-${randomUUID()}`;
      const failed = await stack.client.workflow
        .execute(refundReport, { taskQueue: stack.taskQueue, workflowId, args: [] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      const message = 'input: from and to are required when the workflow is not started by a Schedule';

      const history = await raw.workflow.getHandle(workflowId).fetchHistory();
      const text = rawText(history);
      expect(text).not.toContain('from and to are required');
      expect(text).not.toMatch(stackTraceText);
      const closing = (history.events ?? []).find((event) => event.workflowExecutionFailedEventAttributes)
        ?.workflowExecutionFailedEventAttributes?.failure;
      expect(closing?.applicationFailureInfo?.type).toBe('InvalidJobWindow');
      expectEncoded(closing as ProtoFailure);

      expect(failed).toBeInstanceOf(WorkflowFailedError);
      expect((failed as WorkflowFailedError).cause?.message).toBe(message);
    });
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
    /**
     * Once `count` signals (at least) are in the history and a workflow task completed after the last, all
     * were handled.
     */
    const handledSignals = (workflowId: string, count: number) =>
      eventually(
        async () => {
          const events = (await stack.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
          const signals = events.flatMap((event, index) =>
            event.workflowExecutionSignaledEventAttributes ? [index] : [],
          );
          const last = signals.at(-1);
          return (
            signals.length >= count &&
            last !== undefined &&
            events.slice(last).some((e) => e.workflowTaskCompletedEventAttributes)
          );
        },
        (handled) => handled,
      );
    const refusal = (what: string) =>
      new RegExp(`^refused ${what}: its payload is not encrypted \\(encoding "json/plain"\\)`);
    /** Why the worker refuses each kind of payload that does not decrypt (or is not what bankflow writes). */
    const undecodableReason: Record<UndecodableKind, string> = {
      'random bytes': 'does not decrypt \\(authentication failed under key id "dev-1"',
      'unknown key id':
        'does not decrypt \\(unknown key id "hostile-key"; the keys configured here are "dev-1"\\)',
      'truncated ciphertext': 'does not decrypt \\(truncated: 20 bytes',
      'no key id': 'does not decrypt \\(no key id',
      empty: 'does not decrypt \\(truncated: 0 bytes',
      'unknown encoding': 'is not encrypted \\(encoding "binary/encrypted\\+gzip"\\)',
    };
    const undecodableRefusal = (what: string, kind: UndecodableKind) =>
      new RegExp(`^refused ${what}: its payload ${undecodableReason[kind]}`);
    /** A client that has the namespace but not the keys, sending payloads labelled encrypted of one kind. */
    const hostile = (kind: UndecodableKind) =>
      new Client({
        connection: raw.connection,
        namespace: raw.options.namespace,
        dataConverter: { payloadCodecs: [new UndecodableCodec(encryptionKeys, kind)] },
      });
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

    /**
     * Starts a workflow through `client`: the run fails at once, refusing its input, and no workflow task
     * fails.
     */
    const expectStartRefused = async (client: Client, message: RegExp) => {
      const workflowId = `refused-start-${randomUUID()}`;
      await client.workflow.start(unmatchedWebhookWorkflow, {
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
      expect((failure as ApplicationFailure).message).toMatch(message);
      expect(await failedTasks(workflowId)).toEqual([]);
    };
    /**
     * Each of `intruders` signals a running workflow a resolution: each is dropped (taking one would close
     * the workflow), no workflow task fails, and a genuine resolution still closes it.
     */
    const expectSignalsDropped = async (intruders: Client[]) => {
      const workflowId = `refused-signal-${randomUUID()}`;
      const handle = await stack.client.workflow.start(unmatchedWebhookWorkflow, {
        workflowId,
        taskQueue: stack.taskQueue,
        args: [forgedEvent(workflowId)],
      });
      try {
        for (const intruder of intruders) {
          await intruder.workflow
            .getHandle(workflowId)
            .signal(resolveUnmatchedWebhookSignal, { by: 'intruder', note: 'forged' });
        }
        await handledSignals(workflowId, intruders.length);
        expect((await handle.describe()).status.name).toBe('RUNNING');
        expect(await failedTasks(workflowId)).toEqual([]);
        await handle.signal(resolveUnmatchedWebhookSignal, { by: 'ana', note: 'checked' });
        expect((await handle.result()).resolution).toEqual({ by: 'ana', note: 'checked' });
        expect(await failedTasks(workflowId)).toEqual([]);
      } finally {
        await handle.terminate('test over').catch(() => undefined);
      }
    };

    /** A credential registration from `intruder` is rejected to it with `message`. */
    const expectUpdateRefused = async (intruder: Client, workflowId: string, message: RegExp) => {
      const rejected = await intruder.workflow
        .getHandle(workflowId)
        .executeUpdate(registerCredentialUpdate, { args: [{ assertion: forgedAssertion }] })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(rejected).toBeInstanceOf(WorkflowUpdateFailedError);
      expect((rejected as WorkflowUpdateFailedError).cause?.message).toMatch(message);
    };

    it("cannot start a workflow on bankflow's task queue: the run fails at once, refusing the plaintext input", async () => {
      await expectStartRefused(raw, refusal('the workflow input'));
    });

    it('cannot signal a running workflow: the signal is dropped, and the workflow goes on', async () => {
      await expectSignalsDropped([raw]);
    });

    it('cannot send an update: it is rejected to its caller, and the workflow goes on', async () => {
      const customer = await newCustomer(stack);
      const started = await startEnrollment(stack, {
        ...keyOf(customer),
        returnToUrl: 'https://merchant.example/plaintext',
      });
      const handle = stack.client.workflow.getHandle(started.workflowId);
      try {
        await expectUpdateRefused(raw, started.workflowId, refusal('the update registerCredential'));
        expect((await handle.describe()).status.name).toBe('RUNNING');
        expect(await failedTasks(started.workflowId)).toEqual([]);
      } finally {
        await handle.terminate('test over');
      }
    });

    it('cannot start a workflow with a payload that does not decrypt: the run fails at once, refusing it', async () => {
      for (const kind of undecodableKinds) {
        await expectStartRefused(hostile(kind), undecodableRefusal('the workflow input', kind));
      }
    });

    it('cannot stall a running workflow with signals that do not decrypt: each is dropped, and a genuine signal still works', async () => {
      await expectSignalsDropped(undecodableKinds.map(hostile));
    });

    it("cannot stall an enrollment with updates, queries and signals that do not decrypt: each is refused, and the merchant's next update succeeds", async () => {
      const customer = await newCustomer(stack);
      const started = await startEnrollment(stack, {
        ...keyOf(customer),
        returnToUrl: 'https://merchant.example/undecodable',
      });
      const handle = stack.client.workflow.getHandle(started.workflowId);
      try {
        await control(
          stack,
          'POST',
          `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
          {},
        );
        await waitForPhase(stack, customer, 'awaiting_enrollment');
        for (const kind of undecodableKinds) {
          await expectUpdateRefused(
            hostile(kind),
            started.workflowId,
            undecodableRefusal('the update registerCredential', kind),
          );
          const intruder = hostile(kind).workflow.getHandle(started.workflowId);
          // A query with a payload nobody can read is refused before any handler is looked up, so its name
          // does not matter (the SDK answers its own __stack_trace before bankflow's interceptors see it).
          const query = await intruder.query<unknown, [string]>('journeyProbe', kind).then(
            () => undefined,
            (error: unknown) => error,
          );
          expect((query as Error | undefined)?.message).toMatch(
            undecodableRefusal('the query journeyProbe', kind),
          );
          await intruder.signal(enrollmentWebhookSignal, forgedEvent(started.enrollmentId));
        }
        await handledSignals(started.workflowId, undecodableKinds.length);
        expect(await failedTasks(started.workflowId)).toEqual([]);

        // The merchant's own requests go through as if nothing had come.
        const options = await getRegistrationOptions(stack, keyOf(customer));
        const registered = await registerCredential(stack, {
          ...keyOf(customer),
          assertion: customer.authenticator.createCredential(options, stack.sandbox.url),
        });
        expect(registered.ok).toBe(true);
        expect((await waitForEnrollment(stack, keyOf(customer))).outcome).toBe('authorized');
        expect(await failedTasks(started.workflowId)).toEqual([]);
      } finally {
        await handle.terminate('test over').catch(() => undefined);
      }
    });
  });
});

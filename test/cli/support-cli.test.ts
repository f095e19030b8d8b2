import { jest } from '@jest/globals';
import { randomInt, randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import { z } from 'zod';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { createCodecServer } from '../../src/codec-server/app.js';
import { developmentSupportLookupSecret } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { customerKey, listStuckJourneys, startEnrollment, startPayment } from '../../src/starter/index.js';
import { EncryptionCodec } from '../../src/temporal/encryption.js';
import { workflowIds } from '../../src/contract/ids.js';
import { searchAttributes } from '../../src/contract/temporal.js';
import type { unmatchedWebhookWorkflow } from '../../src/workflows/unmatched-webhook.js';
import { runCli } from '../helpers/cli.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { postSignedWebhook } from '../helpers/http.js';
import { recordHistory } from '../helpers/replay.js';
import { eventually, keyOf, newCustomer, world } from '../helpers/journey.js';
import { encryptionKeys, receiverSecret, startTestStack, type TestStack } from '../helpers/stack.js';

jest.setTimeout(cliTestTimeoutMs);

/** A CPF no other test uses, as people write it. */
const newCpf = () => {
  const digits = String(randomInt(10_000_000_000, 99_999_999_999));
  return {
    digits,
    written: `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`,
  };
};

const codecAnswer = z.object({
  payloads: z.array(z.object({ metadata: z.record(z.string(), z.string()), data: z.string() })),
});

/** A payload codec that asks a codec server over HTTP, as the Temporal UI does with its codec endpoint. */
function remoteCodec(endpoint: string): PayloadCodec {
  const base64 = (bytes: Uint8Array | null | undefined) => Buffer.from(bytes ?? []).toString('base64');
  const call = async (operation: 'encode' | 'decode', payloads: Payload[]): Promise<Payload[]> => {
    const response = await fetch(`${endpoint}/${operation}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        payloads: payloads.map((payload) => ({
          metadata: Object.fromEntries(
            Object.entries(payload.metadata ?? {}).map(([key, value]) => [key, base64(value)]),
          ),
          data: base64(payload.data),
        })),
      }),
    });
    expect(response.status).toBe(200);
    const body = codecAnswer.parse(await response.json());
    return body.payloads.map((payload) => ({
      metadata: Object.fromEntries(
        Object.entries(payload.metadata).map(([key, value]) => [key, Buffer.from(value, 'base64')]),
      ),
      data: Buffer.from(payload.data, 'base64'),
    }));
  };
  return { encode: (payloads) => call('encode', payloads), decode: (payloads) => call('decode', payloads) };
}

describe('bankflow support', () => {
  let stack: TestStack;
  let env: Record<string, string>;
  const cli = (...args: string[]) => runCli(['support', ...args], env);

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
    env = { ...cliEnvFor(stack), TEMPORAL_UI_URL: 'https://temporal.example.com' };
  });
  afterAll(() => stack?.stop());

  /** An empty list: `[]` as JSON, and a table that says so on stderr. */
  const expectNothingListed = async (command: string, saying: string) => {
    const json = await cli(command);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([]);
    const table = await cli(command, '--table');
    expect(table.code).toBe(0);
    expect(table.stderr).toContain(saying);
  };

  /** How many workflows a visibility query finds: the store lags the workflows by a moment. */
  const visible = async (query: string) => {
    let count = 0;
    for await (const workflow of stack.client.workflow.list({ query })) count += workflow.workflowId ? 1 : 0;
    return count;
  };

  describe('find', () => {
    const cpf = newCpf();
    let enrollmentWorkflowId: string;
    let paymentWorkflowId: string;

    beforeAll(async () => {
      const starter = { ...stack, customerKeySecret: developmentSupportLookupSecret };
      const customer = await newCustomer(stack);
      const started = await startEnrollment(starter, {
        ...keyOf(customer),
        returnToUrl: 'https://merchant.example/enrolled',
        customerTaxNumber: cpf.written,
      });
      enrollmentWorkflowId = started.workflowId;
      // An enrollment the customer has not authorized yet: the payment fails at once, and still belongs to
      // them.
      const externalId = `support-${randomUUID()}`;
      await startPayment(starter, {
        externalId,
        enrollmentId: started.enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 1_050,
        description: 'Pedido 1234',
        ...world(stack),
        customerTaxNumber: cpf.digits,
      }).catch(() => undefined);
      paymentWorkflowId = workflowIds.payment(externalId);
      const key = customerKey(developmentSupportLookupSecret, cpf.digits);
      await eventually(
        () => visible(`${searchAttributes.customerKey.name} = '${key}'`),
        (count) => count === 2,
      );
    });

    it("lists the customer's enrollment and payment with their states and UI links", async () => {
      const result = await cli('find', '--tax-number', cpf.written);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      const found = JSON.parse(result.stdout) as {
        customerKey: string;
        link: string;
        workflows: { workflowId: string; kind: string; status: string; execution: string; link: string }[];
      };
      expect(found.customerKey).toBe(customerKey(developmentSupportLookupSecret, cpf.digits));
      expect(found.link).toBe(
        `https://temporal.example.com/namespaces/default/workflows?query=${encodeURIComponent(`BankflowCustomerKey = '${found.customerKey}'`)}`,
      );
      expect(found.workflows.map((row) => row.workflowId).sort()).toEqual(
        [enrollmentWorkflowId, paymentWorkflowId].sort(),
      );
      const enrollment = found.workflows.find((row) => row.workflowId === enrollmentWorkflowId);
      expect(enrollment).toMatchObject({
        kind: 'enrollment',
        status: 'awaiting_account_holder_validation',
        execution: 'RUNNING',
        link: `https://temporal.example.com/namespaces/default/workflows/${encodeURIComponent(enrollmentWorkflowId)}`,
      });
      expect(found.workflows.find((row) => row.workflowId === paymentWorkflowId)).toMatchObject({
        kind: 'payment',
        execution: 'FAILED',
      });
    });

    it('prints a table, and says so when the customer has no journeys', async () => {
      const table = await cli('find', '--tax-number', cpf.digits, '--table');
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/^WORKFLOW +STATE +EXECUTION +STARTED +LINK\n/);
      expect(table.stdout).toContain(`${enrollmentWorkflowId}  awaiting_account_holder_validation  RUNNING`);

      const nobody = await cli('find', '--tax-number', newCpf().digits, '--table');
      expect(nobody.code).toBe(0);
      expect(nobody.stdout.trim()).toBe('WORKFLOW  STATE  EXECUTION  STARTED  LINK');
      expect(nobody.stderr).toContain('no enrollment or payment was started for this customer');
      const empty = await cli('find', '--tax-number', newCpf().digits);
      expect(JSON.parse(empty.stdout)).toMatchObject({ workflows: [] });
    });

    it('refuses what is not a CPF or CNPJ, naming the option', async () => {
      const result = await cli('find', '--tax-number', '123.456');
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /^error: --tax-number: must be a CPF \(11 digits\) or a CNPJ \(14 digits\)/,
      );
    });

    it('refuses a start with a bad tax number, or with no secret to key it, before anything starts', async () => {
      const start = await runCli(
        [
          'enrollment',
          'start',
          '--device',
          randomUUID(),
          '--participant',
          randomUUID(),
          '--return-to',
          'https://shop.example.com/pix/enrolled',
          '--tax-number',
          '12',
        ],
        env,
      );
      expect(start.code).toBe(1);
      expect(start.stderr).toMatch(
        /^error: --tax-number: must be a CPF \(11 digits\) or a CNPJ \(14 digits\)/,
      );
      const customer = await newCustomer(stack);
      await expect(
        startEnrollment(stack, {
          ...keyOf(customer),
          returnToUrl: 'https://merchant.example/enrolled',
          customerTaxNumber: cpf.digits,
        }),
      ).rejects.toThrow(/^customerTaxNumber: needs the starter context to carry the deployment secret/);
    });

    it('lists the enrollment as stuck once its window has passed, and nothing before', async () => {
      await expectNothingListed('stuck', 'no enrollment or payment is stuck');
      expect((await cli('stuck', '--table')).stderr).toContain(
        'runs waiting for workers (no current version, or pinned to a version with none): bankflow doctor --as worker',
      );

      const later = await listStuckJourneys(stack, { asOf: new Date(Date.now() + 60 * 60_000) });
      expect(later.map((row) => [row.workflowId, row.status])).toContainEqual([
        enrollmentWorkflowId,
        'awaiting_account_holder_validation',
      ]);
      expect(later.find((row) => row.workflowId === enrollmentWorkflowId)?.stuckForMs).toBeGreaterThan(
        60 * 60_000 - 20 * 60_000,
      );
    });
  });

  describe('unmatched and resolve', () => {
    const refId = randomUUID();
    const event = {
      category: 'some_future_category',
      type: 'created',
      ref_id: refId,
      timestamp: new Date().toISOString(),
      data: { id: refId, status: 'created' },
    };
    const eventKey = `${event.category}:${event.type}:${event.ref_id}:${event.timestamp}`;

    it('lists nothing while no event is open', async () => {
      await expectNothingListed('unmatched', 'no unmatched webhook event is open');
    });

    it('lists an event no workflow claimed, resolves it with a note kept in its history, once', async () => {
      const answer = await postSignedWebhook(stack.receiverUrl ?? '', JSON.stringify(event), receiverSecret);
      expect(answer.json()).toMatchObject({ delivered: 'unmatched' });
      const workflowId = workflowIds.unmatchedWebhook(eventKey);
      await eventually(
        () => visible(`WorkflowId = '${workflowId}' AND ExecutionStatus = 'Running'`),
        (count) => count === 1,
      );

      const listed = await cli('unmatched');
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual([
        expect.objectContaining({
          workflowId,
          eventKey,
          category: 'some_future_category',
          type: 'created',
          refId,
          age: expect.stringMatching(/^\d+[smh]/),
          link: `https://temporal.example.com/namespaces/default/workflows/${encodeURIComponent(workflowId)}`,
        }),
      ]);
      const table = await cli('unmatched', '--table');
      expect(table.stdout).toMatch(/^ *AGE +CATEGORY +REF ID +EVENT +LINK\n/);
      expect(table.stdout).toContain(`some_future_category/created  ${refId}  ${eventKey}`);

      const resolved = await cli('resolve', eventKey, '--note', 'a test event, nothing to do', '--by', 'ana');
      expect(resolved.stderr).toBe('');
      expect(resolved.code).toBe(0);
      expect(JSON.parse(resolved.stdout)).toEqual({
        workflowId,
        by: 'ana',
        note: 'a test event, nothing to do',
      });
      const handle = stack.client.workflow.getHandle(workflowId);
      expect(await handle.result()).toMatchObject({
        resolution: { by: 'ana', note: 'a test event, nothing to do' },
      });
      expect((await handle.describe()).searchAttributes.BankflowStatus).toEqual(['resolved']);
      const history = await handle.fetchHistory();
      expect(history.events?.some((e) => e.workflowExecutionUpdateAcceptedEventAttributes)).toBe(true);
      await recordHistory(stack.client, workflowId, 'unmatched-webhook-resolved-by-update');

      const again = await cli('resolve', workflowId, '--note', 'twice');
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/^error: .*has ended \(completed\) and takes no more requests/);
    });

    it("is resolved by the signal the UI's dialog sends: resolveUnmatchedWebhook, encoded by the codec server", async () => {
      const uiEvent = { ...event, ref_id: randomUUID(), timestamp: new Date().toISOString() };
      const answer = await postSignedWebhook(
        stack.receiverUrl ?? '',
        JSON.stringify(uiEvent),
        receiverSecret,
      );
      const workflowId: string = answer.json().workflowId;
      // The UI's "Send a Signal" dialog turns the JSON into a json/plain payload and, with a codec endpoint
      // configured, has the codec server's /encode encrypt it before it signals: workers refuse plaintext.
      const codecServer = createCodecServer({
        codec: new EncryptionCodec(encryptionKeys, 'pass'),
        auth: { users: [], tokens: [], encodeTokens: ['ui-token'] },
        corsOrigins: [],
        logger: createLogger('silent'),
      });
      const codecUrl = await codecServer.listen({ host: '127.0.0.1', port: 0 });
      try {
        const ui = new Client({
          connection: stack.client.connection,
          namespace: stack.client.options.namespace,
          dataConverter: { payloadCodecs: [remoteCodec(`${codecUrl}/ui-token`)] },
        });
        await ui.workflow
          .getHandle(workflowId)
          .signal('resolveUnmatchedWebhook', { by: 'ana', note: 'from the UI' });
      } finally {
        await codecServer.close();
      }
      const result = await stack.client.workflow
        .getHandle<typeof unmatchedWebhookWorkflow>(workflowId)
        .result();
      expect(result.resolution).toEqual({ by: 'ana', note: 'from the UI' });
    });

    it('refuses an unknown event and an empty note, naming the argument', async () => {
      const unknown = await cli('resolve', 'webhook-unmatched:no-such-event', '--note', 'checked');
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(
        /^error: <event>: no unmatched webhook event "webhook-unmatched:no-such-event" \(`bankflow support unmatched` lists the open ones\)/,
      );
      const notUnmatched = await cli('resolve', workflowIds.payment('x'), '--note', 'checked');
      expect(notUnmatched.stderr).toMatch(/^error: <event>: no unmatched webhook event/);
      const blank = await cli('resolve', 'anything', '--note', '  ');
      expect(blank.code).toBe(1);
      expect(blank.stderr).toMatch(/^error: --note: must say what was done about the event/);
    });
  });

  it('prints the UI views to save, each a link with its query, for the task queue', async () => {
    const result = await cli('links');
    expect(result.code).toBe(0);
    const views = JSON.parse(result.stdout) as { view: string; query: string; link: string }[];
    expect(views.map((view) => view.view)).toEqual(
      expect.arrayContaining([
        'unmatched webhook events, open',
        'payments awaiting_consent',
        'payments awaiting_consent, stuck as of now',
        'enrollments awaiting_enrollment',
      ]),
    );
    for (const view of views) {
      expect(view.query).toContain(`TaskQueue = '${stack.taskQueue}'`);
      expect(view.link).toBe(
        `https://temporal.example.com/namespaces/default/workflows?query=${encodeURIComponent(view.query)}`,
      );
    }
    const table = await cli('links', '--table');
    expect(table.stdout).toMatch(
      /^VIEW +LINK\nunmatched webhook events, open +https:\/\/temporal\.example\.com\//,
    );
  });
});

import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { webhookHeaders } from '../../src/bank/schemas/webhook.js';
import { signWebhookBody } from '../../src/bank/webhook-signature.js';
import { loadConfig } from '../../src/config.js';
import { startReceiver } from '../../src/stack/receiver-process.js';
import { createReceiver } from '../../src/webhooks/app.js';
import { unmatchedWorkflowId } from '../../src/webhooks/deliver.js';
import { secretHeaderAloneRefused } from '../../src/webhooks/authenticate.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import { workflowIds } from '../../src/contract/ids.js';
import { memoKeys } from '../../src/contract/journeys.js';
import { resolveUnmatchedWebhookSignal } from '../../src/contract/unmatched-webhook.js';
import { webhookEventKey, type ReceivedWebhook } from '../../src/contract/webhook-events.js';
import { httpCall } from '../helpers/http.js';
import { eventually, keyOf, newCustomer } from '../helpers/journey.js';
import { startEnrollment } from '../../src/starter/index.js';
import { freePort } from '../helpers/cli.js';
import { required, startTestStack, type TestStack } from '../helpers/stack.js';
import { testEnvKeys } from '../setup/shared.js';
import { recordHistory } from '../helpers/replay.js';

const secret = 'current-secret';
const previousSecret = 'previous-secret';

function envelope(overrides: Record<string, unknown> = {}) {
  return {
    category: 'some_future_category',
    type: 'created',
    ref_id: '5b1c1f0e-3a52-4c1e-9a8e-1f2d3c4b5a69',
    timestamp: '2026-11-22T10:00:00.000Z',
    data: { id: '5b1c1f0e-3a52-4c1e-9a8e-1f2d3c4b5a69', status: 'created' },
    ...overrides,
  };
}

describe('webhook receiver', () => {
  let stack: TestStack;
  let receiver: FastifyInstance;
  let url: string;

  const post = (body: string, headers: Record<string, string> = {}, receiverUrl = url) =>
    httpCall(`${receiverUrl}/webhooks`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const signed = (body: string, key = secret, receiverUrl = url) =>
    post(body, { [webhookHeaders.signature]: signWebhookBody(body, key) }, receiverUrl);

  /** Another receiver on the same Temporal namespace, as a second replica of a fleet would be. */
  const replicas: FastifyInstance[] = [];
  async function startReplica(auth: { acceptSecretHeader: boolean } = { acceptSecretHeader: false }) {
    const replica = createReceiver({
      client: stack.client,
      taskQueue: stack.taskQueue,
      auth: { secrets: [secret], disabled: false, ...auth },
      maxAgeMs: undefined,
      router: bankflowRouter,
      logger: stack.logger,
    });
    replicas.push(replica);
    return replica.listen({ host: '127.0.0.1', port: 0 });
  }

  /** Every run of a workflow id the namespace has, open or closed. */
  async function runsOf(workflowId: string): Promise<string[]> {
    const runs: string[] = [];
    for await (const run of stack.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
      runs.push(run.runId);
    }
    return runs;
  }
  const webhookSignalsOf = async (workflowId: string) => {
    const history = await stack.client.workflow.getHandle(workflowId).fetchHistory();
    return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
  };

  /** A running enrollment and the bank's fresh event for it, routed by its business keys. */
  async function enrollmentAndItsEvent() {
    const customer = await newCustomer(stack);
    const started = await startEnrollment(stack, {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/x',
    });
    const event = envelope({
      category: 'pix_biometrics_enrollment',
      type: 'awaiting_account_holder_validation',
      ref_id: started.enrollmentId,
      timestamp: new Date().toISOString(),
      data: {
        id: started.enrollmentId,
        device_id: customer.deviceId,
        participant_id: customer.participantId,
      },
    });
    return { started, event };
  }

  beforeAll(async () => {
    stack = await startTestStack();
    receiver = createReceiver({
      client: stack.client,
      taskQueue: stack.taskQueue,
      auth: { secrets: [secret, previousSecret], disabled: false, acceptSecretHeader: false },
      // Most envelopes here carry a fixed timestamp; freshness has a receiver of its own below.
      maxAgeMs: undefined,
      router: bankflowRouter,
      logger: stack.logger,
      bodyLimit: 4096,
    });
    url = await receiver.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    for (const replica of replicas) await replica.close();
    await receiver?.close();
    await stack?.stop();
  });

  it('keeps an event no workflow claims as a visible, durable workflow, once', async () => {
    const body = JSON.stringify(envelope());
    const first = await signed(body);
    expect(first.statusCode).toBe(202);
    const key = webhookEventKey(envelope());
    expect(first.json()).toEqual({
      accepted: key,
      workflowId: workflowIds.unmatchedWebhook(key),
      delivered: 'unmatched',
    });

    const again = await signed(body);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ ...first.json(), duplicate: true });

    const handle = stack.client.workflow.getHandle(workflowIds.unmatchedWebhook(key));
    const description = await handle.describe();
    expect(description.status.name).toBe('RUNNING');
    expect(description.searchAttributes.BankflowKind).toEqual(['webhook-unmatched']);
    expect((description.memo?.[memoKeys.event] as ReceivedWebhook).envelope).toMatchObject(envelope());

    await handle.signal(resolveUnmatchedWebhookSignal, { by: 'support', note: 'test event' });
    expect((await handle.result()).resolution).toEqual({ by: 'support', note: 'test event' });
    expect((await handle.describe()).searchAttributes.BankflowStatus).toEqual(['resolved']);
    await recordHistory(stack.client, handle.workflowId, 'unmatched-webhook-resolved');

    // Another replica never saw the event: Temporal refuses to reuse the closed workflow's id, so nothing new
    // starts.
    const replica = await startReplica();
    const afterResolution = await signed(body, secret, replica);
    expect(afterResolution.statusCode).toBe(202);
    expect(afterResolution.json()).toEqual(first.json());
    expect((await handle.describe()).runId).toBe(description.runId);
    expect(await runsOf(handle.workflowId)).toEqual([description.runId]);
  });

  it('acknowledges a replayed event without a new signal: on this receiver, on another, after its workflow closed', async () => {
    const { started, event } = await enrollmentAndItsEvent();
    const body = JSON.stringify(event);
    const handle = stack.client.workflow.getHandle(started.workflowId);
    const first = await signed(body);
    expect(first.json()).toMatchObject({ delivered: 'signal', workflowId: started.workflowId });
    const signalsBefore = await webhookSignalsOf(started.workflowId);

    const replayed = await signed(body);
    expect(replayed.statusCode).toBe(202);
    expect(replayed.json()).toEqual({ ...first.json(), duplicate: true });
    expect(await webhookSignalsOf(started.workflowId)).toBe(signalsBefore);

    // Another replica, which never saw the event, signals it with the same request id: Temporal drops the
    // copy.
    const running = await signed(body, secret, await startReplica());
    expect(running.json()).toMatchObject({ delivered: 'signal', workflowId: started.workflowId });
    expect(await webhookSignalsOf(started.workflowId)).toBe(signalsBefore);

    // The workflow closes; a replica that never saw the event gets it again: Temporal knows its request id,
    // so it is acknowledged with no new signal and no unmatched-event workflow.
    await handle.terminate('test: the enrollment is over');
    const replica = await startReplica();
    const late = await signed(body, secret, replica);
    expect(late.statusCode).toBe(202);
    expect(late.json()).toMatchObject({ delivered: 'signal', workflowId: started.workflowId });
    expect(await webhookSignalsOf(started.workflowId)).toBe(signalsBefore);
    const key = webhookEventKey(JSON.parse(body));
    await expect(stack.client.workflow.getHandle(unmatchedWorkflowId(key)).describe()).rejects.toThrow(
      WorkflowNotFoundError,
    );

    // An event the closed workflow never heard is not a replay: it is kept, never dropped on its first
    // delivery.
    const unheard = JSON.stringify({
      ...event,
      type: 'awaiting_enrollment',
      timestamp: new Date().toISOString(),
    });
    const kept = await signed(unheard, secret, replica);
    expect(kept.statusCode).toBe(202);
    expect(kept.json()).toMatchObject({ delivered: 'unmatched' });
  });

  it('accepts the previous secret during a rotation', async () => {
    expect((await signed(JSON.stringify(envelope({ type: 'rotation' })), previousSecret)).statusCode).toBe(
      202,
    );
  });

  it('refuses the shared-secret header alone unless WEBHOOK_ACCEPT_SECRET_HEADER allows it', async () => {
    const body = JSON.stringify(envelope({ type: 'secret-header' }));
    const refused = await post(body, { [webhookHeaders.secret]: secret });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error).toBe(secretHeaderAloneRefused);

    const lenient = await startReplica({ acceptSecretHeader: true });
    const accepted = await post(body, { [webhookHeaders.secret]: secret }, lenient);
    expect(accepted.statusCode).toBe(202);
    const wrong = await post(body, { [webhookHeaders.secret]: 'guess' }, lenient);
    expect(wrong.statusCode).toBe(401);
  });

  it('refuses unauthenticated, forged and wrongly signed requests with 401', async () => {
    const body = JSON.stringify(envelope({ type: 'forged' }));
    const missing = await post(body);
    expect(missing.statusCode).toBe(401);
    expect(missing.json().error).toMatch(/missing x-webhook-signature/);
    expect((await signed(body, 'some-other-secret')).statusCode).toBe(401);
    expect((await post(body, { [webhookHeaders.secret]: 'guess' })).statusCode).toBe(401);
    const tampered = await post(body.replace('forged', 'forgeD'), {
      [webhookHeaders.signature]: signWebhookBody(body, secret),
    });
    expect(tampered.statusCode).toBe(401);
    const validSecretBadSignature = await post(body, {
      [webhookHeaders.secret]: secret,
      [webhookHeaders.signature]: 'ab'.repeat(32),
    });
    expect(validSecretBadSignature.statusCode).toBe(401);
  });

  it('answers 400 naming the field for bad JSON or a bad envelope', async () => {
    const notJson = await signed('{"category":');
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json().error).toBe('body is not valid JSON');

    const noRef = envelope();
    delete (noRef as Partial<typeof noRef>).ref_id;
    const missing = await signed(JSON.stringify(noRef));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatch(/^ref_id: /);

    const badTimestamp = await signed(JSON.stringify(envelope({ timestamp: 'yesterday' })));
    expect(badTimestamp.json().error).toMatch(/^timestamp: /);
  });

  it('answers 413 for an oversized body and 415 for a body that is not JSON', async () => {
    const big = JSON.stringify(envelope({ data: { padding: 'x'.repeat(5000) } }));
    expect((await signed(big)).statusCode).toBe(413);
    const text = await httpCall(`${url}/webhooks`, {
      method: 'POST',
      body: 'hello',
      headers: { 'content-type': 'text/plain' },
    });
    expect(text.statusCode).toBe(415);
  });

  it('answers 503 so the bank retries when Temporal cannot take the event', async () => {
    const connection = Connection.lazy({ address: '127.0.0.1:1' });
    const unreachable = createReceiver({
      client: new Client({ connection }),
      taskQueue: stack.taskQueue,
      auth: { secrets: [secret], disabled: false, acceptSecretHeader: false },
      maxAgeMs: undefined,
      router: bankflowRouter,
      logger: stack.logger,
      temporalDeadlineMs: 500,
    });
    try {
      const unreachableUrl = await unreachable.listen({ host: '127.0.0.1', port: 0 });
      const body = JSON.stringify(envelope({ type: 'temporal-down' }));
      const response = await signed(body, secret, unreachableUrl);
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toMatch(/^Temporal is unavailable/);
      expect((await httpCall(`${unreachableUrl}/readyz`)).statusCode).toBe(503);
    } finally {
      await unreachable.close();
      await connection.close();
    }
  });

  it('answers 503 at once beyond its webhooks in flight, without doing their work, and takes more once done', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let routed = 0;
    const narrow = createReceiver({
      client: stack.client,
      taskQueue: stack.taskQueue,
      auth: { secrets: [secret], disabled: false, acceptSecretHeader: false },
      maxAgeMs: undefined,
      router: async (event) => {
        routed++;
        await held;
        return bankflowRouter(event);
      },
      logger: stack.logger,
      maxInFlight: 1,
      // The first webhook waits on the test, not on Temporal: the deadline must not end it first.
      temporalDeadlineMs: 15_000,
    });
    try {
      const narrowUrl = await narrow.listen({ host: '127.0.0.1', port: 0 });
      const send = (type: string) => signed(JSON.stringify(envelope({ type })), secret, narrowUrl);
      const first = send('in-flight-first');
      await eventually(
        async () => routed,
        (count) => count === 1,
      );
      const refused = await send('in-flight-refused');
      expect(refused.statusCode).toBe(503);
      expect(refused.json().error).toBe('busy: 1 webhooks in flight; retry later');
      expect(routed).toBe(1);

      release();
      expect((await first).statusCode).toBe(202);
      expect((await send('in-flight-after')).statusCode).toBe(202);
      expect(routed).toBe(2);
      expect((await httpCall(`${narrowUrl}/metrics`)).body).toMatch(
        /bankflow_webhooks_received_total\{outcome="busy",category="unknown"\} 1\n/,
      );
    } finally {
      release();
      await narrow.close();
    }
  });

  it('answers 202 for a routed event only once the signal is in the workflow history', async () => {
    const { started, event } = await enrollmentAndItsEvent();
    const answer = await signed(JSON.stringify(event));
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toMatchObject({ delivered: 'signal', workflowId: started.workflowId });

    const history = await stack.client.workflow.getHandle(started.workflowId).fetchHistory();
    const signals = (history.events ?? []).filter(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === 'enrollmentWebhook',
    );
    expect(signals.length).toBeGreaterThanOrEqual(1);
  });

  it('refuses stale and far-future envelopes when a maximum age is configured', async () => {
    const strict = createReceiver({
      client: stack.client,
      taskQueue: stack.taskQueue,
      auth: { secrets: [secret], disabled: false, acceptSecretHeader: false },
      router: bankflowRouter,
      logger: stack.logger,
      maxAgeMs: 60_000,
    });
    try {
      const strictUrl = await strict.listen({ host: '127.0.0.1', port: 0 });
      const send = (timestamp: string) => {
        const body = JSON.stringify(envelope({ type: `fresh-${timestamp}`, timestamp }));
        return signed(body, secret, strictUrl);
      };
      expect((await send(new Date().toISOString())).statusCode).toBe(202);
      const old = await send(new Date(Date.now() - 120_000).toISOString());
      expect(old.statusCode).toBe(401);
      expect(old.json().error).toMatch(/older than 60 s \(WEBHOOK_MAX_AGE_SECONDS\)/);
      expect((await send(new Date(Date.now() + 120_000).toISOString())).statusCode).toBe(401);
    } finally {
      await strict.close();
    }
  });

  it('serves health, readiness and metrics', async () => {
    expect((await httpCall(`${url}/healthz`)).statusCode).toBe(200);
    expect((await httpCall(`${url}/readyz`)).json()).toEqual({ status: 'ready' });
    const metrics = await httpCall(`${url}/metrics`);
    expect(metrics.body).toMatch(
      /bankflow_webhooks_received_total\{outcome="unmatched",category="some_future_category"\} \d+/,
    );
    expect(metrics.body).toMatch(/bankflow_webhooks_received_total\{outcome="401",category="unknown"\} \d+/);
  });

  it('serves /metrics and /readyz only on WEBHOOK_INTERNAL_PORT when it is set, /healthz on both ports', async () => {
    const internalPort = await freePort();
    const config = loadConfig({
      BANKFLOW_ENV: 'development',
      TEMPORAL_ADDRESS: required(testEnvKeys.address),
      TEMPORAL_NAMESPACE: required(testEnvKeys.namespace),
      TEMPORAL_TASK_QUEUE: stack.taskQueue,
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: '0',
      WEBHOOK_SECRET: secret,
      WEBHOOK_INTERNAL_PORT: String(internalPort),
      METRICS_HOST: '127.0.0.1',
    });
    const running = await startReceiver(config, config.temporal, stack.logger);
    try {
      const internal = `http://127.0.0.1:${internalPort}`;
      expect(running.metricsUrl).toBe(`${internal}/metrics`);
      const body = JSON.stringify(envelope({ ref_id: randomUUID(), timestamp: new Date().toISOString() }));
      expect((await signed(body, secret, running.url)).statusCode).toBe(202);

      // From the internet, only the webhooks and the liveness probe.
      expect((await httpCall(`${running.url}/metrics`)).statusCode).toBe(404);
      expect((await httpCall(`${running.url}/readyz`)).statusCode).toBe(404);
      expect((await httpCall(`${running.url}/healthz`)).statusCode).toBe(200);

      expect((await httpCall(`${internal}/healthz`)).statusCode).toBe(200);
      expect((await httpCall(`${internal}/readyz`)).json()).toEqual({ status: 'ready' });
      const metrics = await httpCall(`${internal}/metrics`);
      expect(metrics.body).toMatch(
        /bankflow_webhooks_received_total\{outcome="unmatched",category="some_future_category"\} 1/,
      );
      expect((await httpCall(`${internal}/webhooks`, { method: 'POST', body })).statusCode).toBe(404);
    } finally {
      await running.stop();
    }
    expect(await fetch(`http://127.0.0.1:${internalPort}/healthz`).catch(() => 'closed')).toBe('closed');
  });
});

import { createHook } from 'node:async_hooks';
import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { webhookEnvelopeSchema, webhookHeaders } from '../../src/bank/schemas/webhook.js';
import { verifyWebhookSignature } from '../../src/bank/webhook-signature.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../devkit/sandbox/app.js';
import type { FaultSettings } from '../../devkit/sandbox/faults.js';
import type { DeliveryAttempt, WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import type { WebhookEvent } from '../../devkit/sandbox/webhooks/dispatcher.js';
import { sandboxControl } from '../helpers/sandbox-control.js';
import {
  startWebhookReceiver,
  webhookId,
  type ReceivedWebhook,
  type WebhookReceiver,
} from '../helpers/webhook-receiver.js';

const secret = 'test-webhook-secret';
const logger = createLogger('silent');
const opened: { stop(): Promise<void> }[] = [];

async function openSandbox(options: Partial<SandboxOptions> = {}): Promise<RunningSandbox> {
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 42,
    credentials: { clientId: 'test-client', clientSecret: 'test-secret' },
    logger,
    webhookSecret: secret,
    ...options,
  });
  opened.push(sandbox);
  return sandbox;
}

async function openReceiver(answer?: WebhookReceiver['answer']): Promise<WebhookReceiver> {
  const receiver = await startWebhookReceiver(answer);
  opened.push({ stop: () => receiver.close() });
  return receiver;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((resource) => resource.stop()));
});

function paymentEvent(overrides: Partial<WebhookEvent> = {}): WebhookEvent {
  const id = randomUUID();
  return {
    category: 'initiation_document',
    type: 'settled',
    ref_id: id,
    data: { id, status: 'settled', amount: { amount: 1050, currency: 'BRL' }, end_to_end_id: 'E2E1' },
    ...overrides,
  };
}

async function announce(sandbox: RunningSandbox, event: WebhookEvent): Promise<WebhookEventRecord> {
  const response = await sandboxControl(sandbox.url).post<{ data: WebhookEventRecord }>(
    '/sandbox/webhooks/events',
    event,
  );
  expect(response.status).toBe(201);
  return response.body.data;
}

async function listEvents(sandbox: RunningSandbox, query = ''): Promise<WebhookEventRecord[]> {
  const response = await sandboxControl(sandbox.url).get<{ data: WebhookEventRecord[] }>(
    `/sandbox/webhooks/events${query}`,
  );
  expect(response.status).toBe(200);
  return response.body.data;
}

async function listDeliveries(sandbox: RunningSandbox, query = ''): Promise<DeliveryAttempt[]> {
  const response = await sandboxControl(sandbox.url).get<{ data: DeliveryAttempt[] }>(
    `/sandbox/webhooks/deliveries${query}`,
  );
  expect(response.status).toBe(200);
  return response.body.data;
}

/** Waits until no event is pending or held back, and answers them all. */
async function settledEvents(sandbox: RunningSandbox, timeoutMs = 15_000): Promise<WebhookEventRecord[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const events = await listEvents(sandbox);
    if (events.every((event) => event.status !== 'pending' && event.status !== 'held')) return events;
    if (Date.now() > deadline) throw new Error(`webhook events still on their way after ${timeoutMs} ms`);
    await sleep(20);
  }
}

async function configureFaults(sandbox: RunningSandbox, settings: Partial<FaultSettings>): Promise<void> {
  const response = await sandboxControl(sandbox.url).put('/sandbox/faults', settings);
  expect(response.status).toBe(200);
}

function gaps(received: ReceivedWebhook[]): number[] {
  return received.slice(1).map((webhook, index) => webhook.at - (received[index]?.at ?? 0));
}

describe('webhook delivery', () => {
  it("delivers the spec's envelope, signed over the exact raw bytes, with the secret header", async () => {
    const receiver = await openReceiver();
    const sandbox = await openSandbox({ webhookUrl: receiver.url });
    const event = paymentEvent({ context_type: 'enrollment', context_id: randomUUID() });

    const announced = await announce(sandbox, event);
    expect(announced).toMatchObject({ status: 'pending', url: receiver.url, attempts: 0 });
    const [record] = await settledEvents(sandbox);

    expect(receiver.received).toHaveLength(1);
    const [webhook] = receiver.received as [ReceivedWebhook];
    expect(webhook.method).toBe('POST');
    expect(webhook.headers['content-type']).toBe('application/json');
    expect(webhook.headers[webhookHeaders.secret]).toBe(secret);
    expect(webhook.headers[webhookHeaders.id]).toBe(announced.id);
    const expectedSignature = createHmac('sha256', secret).update(webhook.raw).digest('hex');
    expect(webhook.headers[webhookHeaders.signature]).toBe(expectedSignature);
    expect(verifyWebhookSignature(webhook.raw, expectedSignature, ['rotated-out', secret])).toBe(true);

    const body = JSON.parse(webhook.raw.toString('utf8')) as Record<string, unknown>;
    expect(webhookEnvelopeSchema.safeParse(body).success).toBe(true);
    expect(Object.keys(body).sort()).toEqual(
      ['category', 'context_id', 'context_type', 'data', 'ref_id', 'timestamp', 'type'].sort(),
    );
    expect(body).toMatchObject({ ...event, timestamp: announced.envelope.timestamp });
    expect(webhook.raw.toString('utf8')).toBe(JSON.stringify(sandbox.webhooks.published[0]));

    expect(record).toMatchObject({ id: announced.id, status: 'delivered', attempts: 1, delivered_copies: 1 });
    const [attempt] = await listDeliveries(sandbox);
    expect(attempt).toMatchObject({
      event_id: announced.id,
      category: event.category,
      type: event.type,
      ref_id: event.ref_id,
      copy: 1,
      attempt: 1,
      status_code: 200,
      error: null,
      delivered: true,
    });
    expect(attempt?.duration_ms).toBeGreaterThanOrEqual(0);
    expect(Date.parse(attempt?.started_at ?? '')).not.toBeNaN();
  });

  it('sends what was published even when the record changes afterwards', async () => {
    const receiver = await openReceiver((request) => (request === 1 ? 500 : 200));
    const sandbox = await openSandbox({ webhookUrl: receiver.url, webhookDelivery: { baseDelayMs: 30 } });
    const event = paymentEvent();

    const envelope = sandbox.webhooks.publish(event);
    event.data.status = 'failed';
    await settledEvents(sandbox);

    expect(envelope.data.status).toBe('settled');
    expect(receiver.received.map((webhook) => JSON.parse(webhook.raw.toString()).data.status)).toEqual([
      'settled',
      'settled',
    ]);
  });

  it('retries non-2xx answers with exponential backoff until the receiver accepts', async () => {
    const answers = [500, 503, 404, 200];
    const receiver = await openReceiver((request) => answers[request - 1] ?? 200);
    const sandbox = await openSandbox({ webhookUrl: receiver.url, webhookDelivery: { baseDelayMs: 60 } });

    const { id } = await announce(sandbox, paymentEvent());
    const [record] = await settledEvents(sandbox);

    expect(record).toMatchObject({ status: 'delivered', attempts: 4, delivered_copies: 1 });
    expect(receiver.received.map(webhookId)).toEqual([id, id, id, id]);
    const signatures = new Set(receiver.received.map((webhook) => webhook.headers[webhookHeaders.signature]));
    expect(signatures.size).toBe(1);
    const [first, second, third] = gaps(receiver.received) as [number, number, number];
    expect(first).toBeGreaterThanOrEqual(59);
    expect(second).toBeGreaterThanOrEqual(119);
    expect(third).toBeGreaterThanOrEqual(239);
    const attempts = await listDeliveries(sandbox, `?event_id=${id}`);
    expect(attempts.map((attempt) => [attempt.attempt, attempt.status_code, attempt.delivered])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 404, false],
      [4, 200, true],
    ]);
  });

  it('forgets published events and deliveries when the sandbox is reset', async () => {
    const receiver = await openReceiver();
    const sandbox = await openSandbox({ webhookUrl: receiver.url });
    await announce(sandbox, paymentEvent());
    await settledEvents(sandbox);
    expect(await listDeliveries(sandbox)).toHaveLength(1);

    expect((await sandboxControl(sandbox.url).post('/sandbox/reset', {})).status).toBe(200);
    expect(await listEvents(sandbox)).toEqual([]);
    expect(await listDeliveries(sandbox)).toEqual([]);
    expect(sandbox.webhooks.published).toEqual([]);
  });

  it('gives up after 5 tries and never sends a sixth', async () => {
    const receiver = await openReceiver(() => 500);
    const sandbox = await openSandbox({ webhookUrl: receiver.url, webhookDelivery: { baseDelayMs: 20 } });

    const { id } = await announce(sandbox, paymentEvent());
    const [record] = await settledEvents(sandbox);

    expect(record).toMatchObject({ id, status: 'failed', attempts: 5, delivered_copies: 0 });
    const attempts = await listDeliveries(sandbox);
    expect(attempts.map((attempt) => attempt.attempt)).toEqual([1, 2, 3, 4, 5]);
    expect(attempts.every((attempt) => !attempt.delivered && attempt.status_code === 500)).toBe(true);
    const waits = gaps(receiver.received);
    [20, 40, 80, 160].forEach((backoff, index) => expect(waits[index]).toBeGreaterThanOrEqual(backoff - 1));
    await sleep(400);
    expect(receiver.received).toHaveLength(5);
  });

  it('records network failures and cut-off responses as failed attempts and retries them', async () => {
    const refused = await openReceiver();
    await refused.close();
    const sandbox = await openSandbox({
      webhookUrl: refused.url,
      webhookDelivery: { maxAttempts: 2, baseDelayMs: 10 },
    });

    await announce(sandbox, paymentEvent());
    const [unreachable] = await settledEvents(sandbox);
    expect(unreachable).toMatchObject({ status: 'failed', attempts: 2 });
    const refusals = await listDeliveries(sandbox);
    expect(refusals.every((attempt) => attempt.status_code === null)).toBe(true);
    expect(refusals[0]?.error).toMatch(/ECONNREFUSED/);

    const interrupting = await openReceiver((request) => (request === 1 ? 'interrupt' : 200));
    await sandboxControl(sandbox.url).put('/sandbox/webhooks/config', { url: interrupting.url });
    const { id } = await announce(sandbox, paymentEvent());
    await settledEvents(sandbox);
    const attempts = await listDeliveries(sandbox, `?event_id=${id}`);
    expect(attempts.map((attempt) => [attempt.status_code, attempt.error, attempt.delivered])).toEqual([
      [null, 'response interrupted', false],
      [200, null, true],
    ]);
  });

  it('abandons an attempt the receiver stalls on after the timeout, then retries', async () => {
    const stalling = await openReceiver((request) => (request === 1 ? 'stall' : 200));
    const sandbox = await openSandbox({
      webhookUrl: stalling.url,
      webhookDelivery: { timeoutMs: 300, baseDelayMs: 10 },
    });

    const started = performance.now();
    await announce(sandbox, paymentEvent());
    const [record] = await settledEvents(sandbox);

    expect(record).toMatchObject({ status: 'delivered', attempts: 2 });
    const [timedOut, retried] = await listDeliveries(sandbox);
    expect(timedOut).toMatchObject({ attempt: 1, status_code: null, error: 'timed out after 300 ms' });
    expect(timedOut?.duration_ms).toBeGreaterThanOrEqual(299);
    expect(timedOut?.duration_ms).toBeLessThan(2_000);
    expect(retried).toMatchObject({ attempt: 2, status_code: 200, delivered: true });
    expect(performance.now() - started).toBeLessThan(3_000);
  });

  it('defaults to 5 attempts, a 1 s base delay and a 3 s timeout, and never shows the secret', async () => {
    const sandbox = await openSandbox();
    const response = await sandboxControl(sandbox.url).get<{ data: Record<string, unknown> }>(
      '/sandbox/webhooks/config',
    );
    expect(response.body.data).toEqual({
      url: null,
      max_attempts: 5,
      base_delay_ms: 1_000,
      timeout_ms: 3_000,
    });
    expect(JSON.stringify(response.body)).not.toContain(secret);
  });

  it('changes the target and secret at run time; events keep the target they were published under', async () => {
    const first = await openReceiver();
    const second = await openReceiver();
    const sandbox = await openSandbox({ webhookUrl: first.url });
    const control = sandboxControl(sandbox.url);

    const before = await announce(sandbox, paymentEvent());
    const update = await control.put('/sandbox/webhooks/config', {
      url: second.url,
      secret: 'rotated-secret',
      max_attempts: 3,
    });
    expect(update).toEqual({
      status: 200,
      body: { data: { url: second.url, max_attempts: 3, base_delay_ms: 1_000, timeout_ms: 3_000 } },
    });
    const after = await announce(sandbox, paymentEvent());
    await settledEvents(sandbox);

    expect(first.received.map(webhookId)).toEqual([before.id]);
    expect(second.received.map(webhookId)).toEqual([after.id]);
    const [moved] = second.received as [ReceivedWebhook];
    expect(moved.headers[webhookHeaders.secret]).toBe('rotated-secret');
    expect(
      verifyWebhookSignature(moved.raw, moved.headers[webhookHeaders.signature] as string, [secret]),
    ).toBe(false);
    expect(
      verifyWebhookSignature(moved.raw, moved.headers[webhookHeaders.signature] as string, [
        'rotated-secret',
      ]),
    ).toBe(true);

    await control.put('/sandbox/webhooks/config', { url: null });
    const unsent = await announce(sandbox, paymentEvent());
    expect(unsent).toMatchObject({ status: 'undeliverable', url: null, faults: null });
  });

  it('refuses an invalid configuration with one error per member', async () => {
    const sandbox = await openSandbox();
    const response = await sandboxControl(sandbox.url).put<{ errors: { source: { pointer: string } }[] }>(
      '/sandbox/webhooks/config',
      { url: 'ftp://receiver', max_attempts: 0, timeout_ms: -1 },
    );
    expect(response.status).toBe(422);
    expect(response.body.errors.map((error) => error.source.pointer).sort()).toEqual([
      '/max_attempts',
      '/timeout_ms',
      '/url',
    ]);
  });

  it('records events as undeliverable, unsent and still listed, when no URL is configured', async () => {
    const sandbox = await openSandbox();
    const event = paymentEvent({ category: 'pix_biometrics_enrollment', type: 'authorized' });
    const { id } = await announce(sandbox, event);

    expect(await listEvents(sandbox)).toEqual([
      expect.objectContaining({
        id,
        status: 'undeliverable',
        url: null,
        attempts: 0,
        envelope: expect.objectContaining(event),
      }),
    ]);
    expect(await listDeliveries(sandbox)).toEqual([]);
  });

  it('lists events and attempts filtered by ref_id, category, event id and status', async () => {
    const receiver = await openReceiver((request) => (request === 1 ? 500 : 200));
    const sandbox = await openSandbox({ webhookUrl: receiver.url, webhookDelivery: { baseDelayMs: 10 } });
    const payment = paymentEvent();
    const enrollment = paymentEvent({ category: 'pix_biometrics_enrollment', type: 'authorized' });

    const first = await announce(sandbox, payment);
    await settledEvents(sandbox);
    const second = await announce(sandbox, { ...payment, type: 'failed' });
    const third = await announce(sandbox, enrollment);
    await settledEvents(sandbox);

    const byRef = await listDeliveries(sandbox, `?ref_id=${payment.ref_id}`);
    expect(byRef.map((attempt) => [attempt.event_id, attempt.attempt])).toEqual([
      [first.id, 1],
      [first.id, 2],
      [second.id, 1],
    ]);
    const byCategory = await listDeliveries(sandbox, '?category=pix_biometrics_enrollment');
    expect(byCategory.map((attempt) => attempt.event_id)).toEqual([third.id]);
    expect((await listEvents(sandbox, `?ref_id=${payment.ref_id}`)).map((event) => event.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect((await listEvents(sandbox, '?category=initiation_document&status=delivered')).length).toBe(2);
    expect((await listEvents(sandbox, `?event_id=${third.id}`)).map((event) => event.envelope.type)).toEqual([
      'authorized',
    ]);
    expect(await listEvents(sandbox, '?status=failed')).toEqual([]);

    const control = sandboxControl(sandbox.url);
    expect((await control.get('/sandbox/webhooks/events?status=lost')).status).toBe(422);
    expect((await control.get('/sandbox/webhooks/deliveries?ref_id=a&ref_id=b')).status).toBe(422);
    const invalid = await control.post<{ errors: { source: { pointer: string } }[] }>(
      '/sandbox/webhooks/events',
      {
        category: 'initiation_document',
        type: '',
        ref_id: 'not-a-uuid',
        data: {},
      },
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((error) => error.source.pointer).sort()).toEqual(['/ref_id', '/type']);
  });
});

/**
 * Binomial bound: with n independent draws at rate p, the count stays within 3 standard deviations of n * p
 * for all but ~0.3% of seeds. The seed is fixed, so the count never varies between runs; the bound shows the
 * rate is the configured one, and a wrong wiring (rate ignored, applied twice, or to the wrong events) breaks
 * it.
 */
function expectRate(count: number, n: number, p: number): void {
  const sigma = Math.sqrt(n * p * (1 - p));
  expect(Math.abs(count - n * p)).toBeLessThanOrEqual(3 * sigma);
}

interface ScenarioRun {
  events: WebhookEventRecord[];
  received: ReceivedWebhook[];
  /** performance.now() just before each event was announced, by event id. */
  announcedAt: Map<string, number>;
  /** performance.now() just after the sandbox answered each announcement, by event id. */
  answeredAt: Map<string, number>;
  injected: Record<string, number>;
}

const scenarioSize = 200;

/**
 * Announces `scenarioSize` events one after another under the given webhook faults and waits for all of them.
 */
async function runScenario(faults: Partial<FaultSettings>, seed = 7): Promise<ScenarioRun> {
  const receiver = await openReceiver();
  const sandbox = await openSandbox({ webhookUrl: receiver.url, webhookDelivery: { baseDelayMs: 10 } });
  await configureFaults(sandbox, { seed, ...faults });
  const announcedAt = new Map<string, number>();
  const answeredAt = new Map<string, number>();
  for (let index = 0; index < scenarioSize; index++) {
    const at = performance.now();
    const { id } = await announce(
      sandbox,
      paymentEvent({ type: index % 2 ? 'settled' : 'awaiting_payment' }),
    );
    announcedAt.set(id, at);
    answeredAt.set(id, performance.now());
  }
  const events = await settledEvents(sandbox);
  const faultState = await sandboxControl(sandbox.url).get<{ data: { injected: Record<string, number> } }>(
    '/sandbox/faults',
  );
  return {
    events,
    received: receiver.received,
    announcedAt,
    answeredAt,
    injected: faultState.body.data.injected,
  };
}

const decisions = (run: ScenarioRun) => run.events.map((event) => event.faults);

describe('webhook faults, reproducible from the seed', () => {
  it('drops events at the configured rate: never sent, recorded as dropped', async () => {
    const run = await runScenario({ webhook_drop_rate: 0.3 });
    const dropped = run.events.filter((event) => event.status === 'dropped');

    expectRate(dropped.length, scenarioSize, 0.3);
    expect(run.injected.webhooksDropped).toBe(dropped.length);
    expect(dropped.every((event) => event.faults?.dropped && event.attempts === 0)).toBe(true);
    const sent = run.events.filter((event) => event.status !== 'dropped').map((event) => event.id);
    expect(run.received.map(webhookId).sort()).toEqual(sent.sort());

    const again = await runScenario({ webhook_drop_rate: 0.3 });
    expect(decisions(again)).toEqual(decisions(run));
    const otherSeed = await runScenario({ webhook_drop_rate: 0.3 }, 8);
    expect(decisions(otherSeed)).not.toEqual(decisions(run));
  });

  it('sends events twice at the configured rate, both copies with the same id', async () => {
    const run = await runScenario({ webhook_duplicate_rate: 0.3 });
    const duplicated = run.events.filter((event) => event.faults?.duplicated);

    expectRate(duplicated.length, scenarioSize, 0.3);
    expect(run.injected.webhooksDuplicated).toBe(duplicated.length);
    const copies = new Map<string, number>();
    for (const webhook of run.received)
      copies.set(webhookId(webhook), (copies.get(webhookId(webhook)) ?? 0) + 1);
    for (const event of run.events) {
      const expected = event.faults?.duplicated ? 2 : 1;
      expect([event.id, copies.get(event.id)]).toEqual([event.id, expected]);
      expect(event).toMatchObject({ status: 'delivered', delivered_copies: expected });
    }
    expect(run.received).toHaveLength(scenarioSize + duplicated.length);

    expect(decisions(await runScenario({ webhook_duplicate_rate: 0.3 }))).toEqual(decisions(run));
  });

  it('holds events back at the configured rate and sends each after the next event', async () => {
    const maxHoldMs = 5_000;
    const run = await runScenario({ webhook_reorder_rate: 0.2, webhook_reorder_max_hold_ms: maxHoldMs });
    const arrival = new Map(run.received.map((webhook) => [webhookId(webhook), webhook.at]));
    const reordered = run.events.filter((event) => event.faults?.reordered);

    expectRate(reordered.length, scenarioSize, 0.2);
    expect(run.injected.webhooksReordered).toBe(reordered.length);
    expect(run.events.every((event) => event.status === 'delivered')).toBe(true);
    let overtaken = 0;
    run.events.forEach((event, index) => {
      if (!event.faults?.reordered) return;
      const next = run.events.slice(index + 1).find((later) => !later.faults?.reordered);
      if (!next) return;
      // On a starved machine the next event can be announced after the hold ended; then nothing overtakes.
      const nextInsideHold =
        (run.answeredAt.get(next.id) ?? Infinity) - (run.announcedAt.get(event.id) ?? 0) < maxHoldMs;
      if (!nextInsideHold) return;
      expect(arrival.get(event.id)).toBeGreaterThan(arrival.get(next.id) ?? Infinity);
      overtaken++;
    });
    expect(overtaken).toBeGreaterThan(0);

    expect(
      decisions(await runScenario({ webhook_reorder_rate: 0.2, webhook_reorder_max_hold_ms: maxHoldMs })),
    ).toEqual(decisions(run));
  });

  it('delays events at the configured rate by the fixed delay plus jitter', async () => {
    const faults = { webhook_delay_rate: 0.5, webhook_delay_ms: 30, webhook_delay_jitter_ms: 40 };
    const run = await runScenario(faults);
    const arrival = new Map(run.received.map((webhook) => [webhookId(webhook), webhook.at]));
    const delayed = run.events.filter((event) => (event.faults?.delay_ms ?? 0) > 0);

    expectRate(delayed.length, scenarioSize, 0.5);
    expect(run.injected.webhooksDelayed).toBe(delayed.length);
    for (const event of delayed) {
      const delay = event.faults?.delay_ms ?? 0;
      expect(delay).toBeGreaterThanOrEqual(30);
      expect(delay).toBeLessThanOrEqual(70);
      const sent = (arrival.get(event.id) ?? 0) - (run.announcedAt.get(event.id) ?? Infinity);
      expect(sent).toBeGreaterThanOrEqual(delay - 1);
    }
    expect(new Set(delayed.map((event) => event.faults?.delay_ms)).size).toBeGreaterThan(10);

    expect(decisions(await runScenario(faults))).toEqual(decisions(run));
  });

  it('sends a held event after its hold when no next event comes', async () => {
    const receiver = await openReceiver();
    const sandbox = await openSandbox({ webhookUrl: receiver.url });
    await configureFaults(sandbox, { seed: 1, webhook_reorder_rate: 1, webhook_reorder_max_hold_ms: 150 });

    const started = performance.now();
    const held = await announce(sandbox, paymentEvent());
    expect(held.status).toBe('held');
    const [record] = await settledEvents(sandbox);

    expect(record).toMatchObject({ status: 'delivered', faults: { reordered: true } });
    expect((receiver.received[0]?.at ?? 0) - started).toBeGreaterThanOrEqual(149);
  });
});

describe('closing the sandbox', () => {
  /**
   * Timers, sockets and servers created while tracking that have not been destroyed yet (the test's own
   * aside).
   */
  function trackResources() {
    const kinds = new Set(['Timeout', 'TCPWRAP', 'TCPSERVERWRAP']);
    const live = new Map<number, string>();
    let paused = false;
    const hook = createHook({
      init: (id, type) => void (!paused && kinds.has(type) && live.set(id, type)),
      destroy: (id) => void live.delete(id),
    }).enable();
    /** Polls with timers of its own that are not tracked. */
    const waitUntil = async (check: () => boolean, timeoutMs = 2_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!check() && Date.now() < deadline) {
        paused = true;
        const tick = sleep(10);
        paused = false;
        await tick;
      }
    };
    return { live: () => [...live.values()], waitUntil, stop: () => hook.disable() };
  }

  it('stops every delivery, timer and connection, and cancels what was on its way', async () => {
    const stalling = await openReceiver(() => 'stall');
    const failing = await openReceiver(() => 500);
    const resources = trackResources();
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed: 3,
      credentials: { clientId: 'test-client', clientSecret: 'test-secret' },
      logger,
      webhookUrl: stalling.url,
      webhookDelivery: { timeoutMs: 60_000, baseDelayMs: 60_000 },
    });
    const { webhooks, faults } = sandbox;

    const inFlight = webhooks.announce(paymentEvent());
    faults.configure({ ...faults.current(), webhook_delay_ms: 60_000 });
    const delayed = webhooks.announce(paymentEvent());
    faults.configure({ ...faults.current(), webhook_delay_ms: 0 });
    webhooks.configure({ url: failing.url });
    const backingOff = webhooks.announce(paymentEvent());
    faults.configure({ ...faults.current(), webhook_reorder_rate: 1, webhook_reorder_max_hold_ms: 60_000 });
    const held = webhooks.announce(paymentEvent());
    await resources.waitUntil(() => stalling.received.length === 1 && backingOff.attempts === 1);
    expect([inFlight, delayed, backingOff, held].map((event) => event.status)).toEqual([
      'pending',
      'pending',
      'pending',
      'held',
    ]);

    const closing = performance.now();
    await sandbox.stop();
    expect(performance.now() - closing).toBeLessThan(1_000);

    expect([inFlight, delayed, backingOff, held].map((event) => event.status)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(webhooks.announce(paymentEvent())).toMatchObject({ status: 'cancelled', attempts: 0 });
    await resources.waitUntil(() => resources.live().length === 0);
    resources.stop();
    expect(resources.live()).toEqual([]);
    await sleep(100);
    expect(stalling.received).toHaveLength(1);
    expect(failing.received).toHaveLength(1);
  });
});

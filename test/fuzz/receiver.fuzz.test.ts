import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { webhookCategories, type WebhookEnvelope } from '../../src/bank/schemas/webhook.js';
import { createReceiver } from '../../src/webhooks/app.js';
import { unmatchedWorkflowId } from '../../src/webhooks/deliver.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import { cashInEndToEndId } from '../../src/webhooks/unmatched-keys.js';
import { workflowIds } from '../../src/contract/ids.js';
import { memoKeys } from '../../src/contract/journeys.js';
import { webhookEventKey, type ReceivedWebhook } from '../../src/contract/webhook-events.js';
import { fuzzParameters } from '../helpers/fuzz.js';
import { eventually } from '../helpers/journey.js';
import { abandonedUpload, closeRawAgent, rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import {
  brokenJsonArbitrary,
  invalidAuth,
  jsonContentTypes,
  mutatedEnvelopeArbitrary,
  otherContentTypes,
  repeatedContentType,
  secrets,
  validAuth,
  validBodyArbitrary,
  type Aim,
  type AuthCase,
  type ContentTypeCase,
  type Envelope,
} from './webhook-cases.js';

const bodyLimit = 64 * 1024;

interface WebhookRequest {
  body: Buffer;
  /** Set when the body is a valid envelope. */
  envelope?: Envelope;
  auth: AuthCase;
  contentType: ContentTypeCase;
  chunked: boolean;
}

/** What the receiver must answer, from what the request is; checks run in the receiver's own order. */
function expectedStatus(request: WebhookRequest): number {
  if (request.body.length === 0 && request.contentType.headers.length === 0) return 400;
  if (!request.contentType.json) return 415;
  if (request.body.length > bodyLimit) return 413;
  if (!request.auth.valid) return 401;
  return request.envelope ? 202 : 400;
}

const describeRequest = (request: WebhookRequest) =>
  `${request.auth.name}, ${JSON.stringify(request.contentType.headers)}, ${request.body.length} bytes${request.chunked ? ' chunked' : ''}`;

describe('webhook receiver under random and mutated input', () => {
  let stack: TestStack;
  let receiver: FastifyInstance;
  let url: string;
  /** Workflows no worker runs: their histories record every signal the receiver sends them. */
  const aims: Aim[] = [];
  /** What the accepted requests say the receiver did: unmatched workflows kept, signals per target. */
  const kept = new Map<string, string>();
  const signals = new Map<string, number>();
  /** The cash-in holders the receiver signalled (and so started), and each key's first answer. */
  const held = new Set<string>();
  const answers = new Map<string, Record<string, unknown>>();

  async function startSignalTarget(aim: Omit<Aim, 'delivered'>) {
    await stack.client.workflow.start('fuzzSignalTarget', {
      workflowId: aim.workflowId,
      taskQueue: `fuzz-idle-${randomUUID()}`,
    });
    aims.push({ ...aim, delivered: 'signal' });
    signals.set(aim.workflowId, 0);
  }

  beforeAll(async () => {
    stack = await startTestStack();
    receiver = createReceiver({
      client: stack.client,
      taskQueue: stack.taskQueue,
      // The shared secret alone is one of the fuzzed credentials, and envelopes carry any timestamp.
      auth: { secrets: [secrets.current, secrets.previous], disabled: false, acceptSecretHeader: true },
      maxAgeMs: undefined,
      router: bankflowRouter,
      logger: stack.logger,
      bodyLimit,
    });
    url = await receiver.listen({ host: '127.0.0.1', port: 0 });

    const paymentRef = `fuzz-${randomUUID()}`;
    const recurrenceRef = `fuzz-${randomUUID()}`;
    const device = randomUUID();
    const participant = randomUUID();
    await startSignalTarget({
      category: webhookCategories.initiationDocument,
      data: { external_id: paymentRef },
      workflowId: workflowIds.payment(paymentRef),
    });
    await startSignalTarget({
      category: webhookCategories.enrollment,
      data: { device_id: device, participant_id: participant },
      workflowId: workflowIds.enrollment(device, participant),
    });
    await startSignalTarget({
      category: webhookCategories.recurrenceCollectionAttempt,
      data: { external_id: recurrenceRef },
      workflowId: workflowIds.recurrence(recurrenceRef),
    });
    // A cash-in lands by its end-to-end id in a holder the receiver starts on the stack's task queue.
    const endToEndId = `E${Date.now()}${randomUUID().slice(0, 8)}`;
    aims.push({
      category: webhookCategories.collectingDocument,
      data: { end_to_end_id: endToEndId },
      workflowId: workflowIds.cashIn(endToEndId),
      delivered: 'held',
    });
    signals.set(workflowIds.cashIn(endToEndId), 0);
  });

  afterAll(async () => {
    for (const aim of aims) {
      // A holder exists only once a cash-in reached it.
      await stack?.client.workflow
        .getHandle(aim.workflowId)
        .terminate('fuzz run over')
        .catch(() => undefined);
    }
    await receiver?.close();
    await stack?.stop();
    closeRawAgent();
  });

  /** Sends one request and checks the answer against what the request is; the receiver must stay up. */
  async function exchange(request: WebhookRequest): Promise<RawAnswer> {
    const headers = [...request.contentType.headers, ...request.auth.headers(request.body)];
    const answer = await rawRequest(`${url}/webhooks`, {
      headers,
      body: request.body,
      chunked: request.chunked && request.body.length > 0,
    });
    const expected = expectedStatus(request);
    if (answer.statusCode !== expected) {
      throw new Error(
        `expected ${expected}, got ${answer.statusCode} ${answer.body} for ${describeRequest(request)}`,
      );
    }
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    const json = JSON.parse(answer.body) as Record<string, unknown>;
    if (expected === 202) {
      recordAcceptance(request.envelope as Envelope, json);
    } else {
      expect(typeof json.error).toBe('string');
      expect((json.error as string).trim()).not.toBe('');
    }
    expect((await rawRequest(`${url}/healthz`, { method: 'GET', headers: [] })).statusCode).toBe(200);
    return answer;
  }

  /**
   * A 202 names the event and where it went: the aimed workflow as a signal, a cash-in's holder by its
   * end-to-end id, or an unmatched-event workflow. A copy is answered as the receiver first answered its key.
   */
  function recordAcceptance(envelope: Envelope, json: Record<string, unknown>): void {
    const key = webhookEventKey(envelope as Parameters<typeof webhookEventKey>[0]);
    expect(json.accepted).toBe(key);
    // A repeated key (fast-check can draw one twice) is answered from the receiver's memory: no new signal.
    const earlier = answers.get(key);
    if (json.duplicate === true && earlier) {
      expect(json).toMatchObject(earlier);
      return;
    }
    const aimed = aims.find(
      (aim) =>
        envelope.category === aim.category &&
        (aim.refId === undefined || envelope.ref_id === aim.refId) &&
        Object.entries(aim.data).every(
          ([member, value]) => (envelope.data as Record<string, unknown>)[member] === value,
        ),
    );
    const endToEndId = cashInEndToEndId(envelope as unknown as WebhookEnvelope);
    if (aimed) {
      expect(json).toMatchObject({ delivered: aimed.delivered, workflowId: aimed.workflowId });
      signals.set(aimed.workflowId, (signals.get(aimed.workflowId) ?? 0) + 1);
      if (aimed.delivered === 'held') held.add(aimed.workflowId);
    } else if (endToEndId !== undefined) {
      expect(json).toMatchObject({ delivered: 'held', workflowId: workflowIds.cashIn(endToEndId) });
      held.add(workflowIds.cashIn(endToEndId));
    } else {
      const workflowId = unmatchedWorkflowId(key);
      expect(json).toMatchObject({ delivered: 'unmatched', workflowId });
      expect(Buffer.byteLength(workflowId)).toBeLessThanOrEqual(1_000);
      if (Buffer.byteLength(workflowIds.unmatchedWebhook(key)) <= 1_000) {
        expect(workflowId).toBe(workflowIds.unmatchedWebhook(key));
      }
      kept.set(workflowId, key);
    }
    answers.set(key, { delivered: json.delivered, workflowId: json.workflowId });
  }

  const validRequest = (targets: Aim[]) =>
    fc.record({
      valid: validBodyArbitrary(targets),
      auth: fc.constantFrom(...validAuth),
      contentType: fc.constantFrom(...jsonContentTypes),
      chunked: fc.boolean(),
    });

  it('accepts every valid signed envelope (202): any category, routing keys, huge strings, nesting', async () => {
    await fc.assert(
      fc.asyncProperty(validRequest(aims), async ({ valid, auth, contentType, chunked }) => {
        await exchange({ body: valid.body, envelope: valid.envelope, auth, contentType, chunked });
      }),
      fuzzParameters(300),
    );
  });

  it('refuses envelopes with a member dropped, retyped, emptied or malformed (400 naming it)', async () => {
    await fc.assert(
      fc.asyncProperty(
        mutatedEnvelopeArbitrary(aims),
        fc.constantFrom(...validAuth),
        fc.constantFrom(...jsonContentTypes),
        async (invalid, auth, contentType) => {
          const answer = await exchange({ body: invalid.body, auth, contentType, chunked: false });
          if (answer.statusCode === 400)
            expect(JSON.parse(answer.body).error).toMatch(new RegExp(`^${invalid.names}: \\S`));
        },
      ),
      fuzzParameters(300),
    );
  });

  it('refuses bodies that are not strict JSON: cut short, not UTF-8, unpaired surrogates, too deep, noise (400)', async () => {
    await fc.assert(
      fc.asyncProperty(
        brokenJsonArbitrary(aims),
        fc.constantFrom(...validAuth),
        fc.constantFrom(...jsonContentTypes),
        fc.boolean(),
        async (invalid, auth, contentType, chunked) => {
          const answer = await exchange({ body: invalid.body, auth, contentType, chunked });
          if (invalid.reason && answer.statusCode === 400)
            expect(JSON.parse(answer.body).error).toMatch(invalid.reason);
        },
      ),
      fuzzParameters(300),
    );
  });

  it('answers by the headers: 401 for missing or bad credentials, 415 for anything but JSON, duplicates included', async () => {
    const body = fc.oneof(
      validBodyArbitrary(aims).map((valid) => ({
        body: valid.body,
        envelope: valid.envelope as Envelope | undefined,
      })),
      mutatedEnvelopeArbitrary(aims).map((invalid) => ({ body: invalid.body, envelope: undefined })),
    );
    const auth = fc.oneof(fc.constantFrom(...validAuth), invalidAuth);
    const contentType = fc.oneof(
      fc.constantFrom(...jsonContentTypes),
      otherContentTypes,
      repeatedContentType,
    );
    await fc.assert(
      fc.asyncProperty(body, auth, contentType, fc.boolean(), async (sent, auth, contentType, chunked) => {
        await exchange({ ...sent, auth, contentType, chunked });
      }),
      fuzzParameters(400),
    );
  });

  it('accepts a body at the size limit and refuses one byte more (413), streamed or not', async () => {
    const sized = fc.record({
      valid: validRequest([]),
      overshoot: fc.integer({ min: -3, max: 3 }),
      padding: fc.constantFrom('x', 'é', '€'),
    });
    await fc.assert(
      fc.asyncProperty(
        sized,
        async ({ valid: { valid, auth, contentType, chunked }, overshoot, padding }) => {
          const bare = Buffer.byteLength(JSON.stringify({ ...valid.envelope, data: { pad: '' } }));
          const room = bodyLimit + overshoot - bare;
          const unit = Buffer.byteLength(padding);
          const pad =
            padding.repeat(Math.max(0, Math.floor(room / unit))) + 'x'.repeat(Math.max(0, room % unit));
          const envelope = { ...valid.envelope, data: { pad } };
          const body = Buffer.from(JSON.stringify(envelope));
          expect(body.length).toBe(Math.max(bare, bodyLimit + overshoot));
          await exchange({ body, envelope, auth, contentType, chunked });
        },
      ),
      fuzzParameters(60),
    );
  });

  it('keeps answering after clients hang up mid-upload, and keeps nothing from them', async () => {
    await fc.assert(
      fc.asyncProperty(
        validBodyArbitrary(aims),
        fc.double({ min: 0, max: 0.99, noNaN: true }),
        async (valid, fraction) => {
          const headers: [string, string][] = [
            ['content-type', 'application/json'],
            ...(validAuth[0] as AuthCase).headers(valid.body),
          ];
          await abandonedUpload(
            `${url}/webhooks`,
            headers,
            valid.body.subarray(0, Math.floor(valid.body.length * fraction)),
            valid.body.length,
          );
          expect((await rawRequest(`${url}/healthz`, { method: 'GET', headers: [] })).statusCode).toBe(200);
        },
      ),
      fuzzParameters(30),
    );
  });

  it('started exactly the workflows of the accepted events and signalled only for valid ones', async () => {
    const onQueue = async () => {
      const ids = new Set<string>();
      for await (const workflow of stack.client.workflow.list({
        query: `TaskQueue = '${stack.taskQueue}'`,
      })) {
        ids.add(workflow.workflowId);
      }
      return ids;
    };
    const expected = [...kept.keys(), ...held].sort();
    const started = await eventually(onQueue, (ids) => ids.size >= expected.length);
    expect([...started].sort()).toEqual(expected);
    expect(kept.size).toBeGreaterThan(100);

    // Each kept workflow holds the event it was started for, long keys (kept under a digest) included.
    const digested = [...kept].filter(([id, key]) => id !== workflowIds.unmatchedWebhook(key));
    expect(digested.length).toBeGreaterThan(0);
    for (const [workflowId, key] of [...digested.slice(0, 10), ...[...kept].slice(0, 10)]) {
      const { memo } = await stack.client.workflow.getHandle(workflowId).describe();
      const event = memo?.[memoKeys.event] as ReceivedWebhook;
      expect(event.key).toBe(key);
    }

    for (const aim of aims) {
      const history = await stack.client.workflow.getHandle(aim.workflowId).fetchHistory();
      const signalled = (history.events ?? []).filter(
        (event) => event.workflowExecutionSignaledEventAttributes,
      ).length;
      expect({ workflowId: aim.workflowId, signalled }).toEqual({
        workflowId: aim.workflowId,
        signalled: signals.get(aim.workflowId),
      });
      expect(signalled).toBeGreaterThan(0);
    }
  });
});

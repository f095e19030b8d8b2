import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';
import { resolveUnmatchedWebhookSignal } from '../../src/contract/unmatched-webhook.js';
import { type unmatchedWebhookWorkflow } from '../../src/workflows/unmatched-webhook.js';
import { postSignedWebhook } from '../helpers/http.js';
import { receiverSecret } from '../helpers/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const day = 24 * 60 * 60_000;
/** A timer's start and firing, and the workflow task it makes: the events each day adds. */
const dailyTaskEvents = 5;
const { EventType } = proto.temporal.api.enums.v1;

/** A bank event of a category no bankflow workflow claims, so the receiver keeps it as unmatched. */
const unclaimedEvent = () => {
  const id = randomUUID();
  return {
    category: 'some_future_category',
    type: 'created',
    ref_id: id,
    timestamp: '2026-11-22T10:00:00.000Z',
    data: { id, status: 'created' },
  };
};

describe('an unmatched webhook kept for 30 days, on a time-skipping server', () => {
  let stack: TimeSkippingStack;

  beforeAll(async () => {
    stack = await startTimeSkippingStack({ receiver: true });
  });
  afterAll(() => stack?.stop());

  async function keep(envelope: ReturnType<typeof unclaimedEvent>) {
    const answer = await postSignedWebhook(stack.receiverUrl!, JSON.stringify(envelope), receiverSecret);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toMatchObject({ delivered: 'unmatched' });
    const { workflowId } = answer.json() as { workflowId: string };
    return stack.client.workflow.getHandle<typeof unmatchedWebhookWorkflow>(workflowId);
  }

  /** Server time from start to close, and the history's event types. */
  async function closed(handle: WorkflowHandle) {
    const description = await handle.describe();
    const events = (await handle.fetchHistory()).events ?? [];
    return {
      description,
      lifetimeMs: (description.closeTime?.getTime() ?? NaN) - description.startTime.getTime(),
      eventTypes: events.map((event) => event.eventType),
    };
  }

  it('closes by itself after 30 days as expired, in seconds, taking a workflow task a day', async () => {
    const envelope = unclaimedEvent();
    const handle = await keep(envelope);
    const wallClock = Date.now();
    const result = await handle.result();
    expect(Date.now() - wallClock).toBeLessThan(15_000);

    expect(result).toMatchObject({ resolution: 'expired', event: { envelope } });
    const { description, lifetimeMs, eventTypes } = await closed(handle);
    expect(description.status.name).toBe('COMPLETED');
    expect(description.searchAttributes.BankflowStatus).toEqual(['expired']);
    expect(lifetimeMs).toBeGreaterThanOrEqual(30 * day);
    expect(lifetimeMs).toBeLessThan(31 * day);
    // A daily timer, so that the run learns of a new version within a day (docs/upgrading-workflows.md).
    expect(eventTypes.filter((type) => type === EventType.EVENT_TYPE_TIMER_FIRED)).toHaveLength(30);
    expect(eventTypes.length).toBeLessThanOrEqual(12 + 29 * dailyTaskEvents);
  });

  it('ends with the note when resolved before the 30 days are up', async () => {
    const handle = await keep(unclaimedEvent());
    await stack.skip('12 days');
    const resolution = { by: 'support', note: 'a test event from the bank, nothing to do' };
    await handle.signal(resolveUnmatchedWebhookSignal, resolution);

    expect(await handle.result()).toMatchObject({ resolution });
    const { description, lifetimeMs, eventTypes } = await closed(handle);
    expect(description.searchAttributes.BankflowStatus).toEqual(['resolved']);
    expect(lifetimeMs).toBeGreaterThanOrEqual(12 * day);
    expect(lifetimeMs).toBeLessThan(30 * day);
    // A timer a day from its first workflow task, a moment after the start: the last day's may not have
    // fired.
    const days = Math.floor(lifetimeMs / day);
    const fired = eventTypes.filter((type) => type === EventType.EVENT_TYPE_TIMER_FIRED).length;
    expect([days - 1, days]).toContain(fired);
    expect(eventTypes.length).toBeLessThanOrEqual(14 + days * dailyTaskEvents);
  });
});

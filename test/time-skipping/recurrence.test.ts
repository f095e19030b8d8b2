import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import { recurrenceWebhookSignal } from '../../src/contract/temporal.js';
import { runLifetime } from '../../src/contract/journeys.js';
import { startTunedRecurrence } from '../../src/starter/recurrences.js';
import {
  getRecurrence,
  runAttemptsSync,
  startRecurrence,
  type StarterContext,
} from '../../src/starter/index.js';
import { control, eventually } from '../helpers/journey.js';
import { collectionAttemptWebhook } from '../helpers/received-webhook.js';
import { recurrenceRequest, runHistoryLengths } from '../helpers/recurrences.js';
import { runsOf } from '../../devkit/temporal/runs.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const day = 24 * 60 * 60_000;
const maxHistoryEvents = 20;
const months = 12;

const monthStart = (month: number) =>
  new Date(Date.UTC(2031, month - 1, 1)).toISOString().replace('.000Z', 'Z');

describe('a recurrence followed for a year, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  // Time moves only when the test skips it: awaiting the sync's result with the time-skipping client would
  // let the test server jump from one of the recurrence's daily timers to the next, months at a time
  // (test/helpers/time-skipping.ts).
  let ctx: StarterContext;

  beforeAll(async () => {
    stack = await startTimeSkippingStack();
    ctx = { client: stack.manualTimeClient, taskQueue: stack.taskQueue };
  });
  afterAll(() => stack?.stop());

  it('takes each month of attempts from the sync, continuing as new with its state and a bounded history', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence, workflowId } = await startTunedRecurrence(ctx, request, {
      maxHistoryEvents,
      maxAttemptsKept: 5,
    });
    const startedAt = await stack.now();

    // Each month the bank tries once and, every third month, fails and retries five days later; the monthly
    // sync of attempts (the Schedule's job) brings them to the workflow.
    for (let month = 1; month <= months; month++) {
      await stack.skip('30 days');
      const day5 = monthStart(month).replace('-01T', '-05T');
      const attempts =
        month % 3 === 0
          ? [
              { status: 'failed', timestamp: day5 },
              { status: 'settled', timestamp: day5.replace('-05T', '-10T') },
            ]
          : [{ status: 'settled', timestamp: day5 }];
      await control(stack, 'POST', `/sandbox/recurrences/${recurrence.id}/attempts`, { attempts });
      const summary = await runAttemptsSync(ctx, { from: monthStart(month), to: monthStart(month + 1) });
      expect(summary).toMatchObject({ attempts: attempts.length, recurrencesUpdated: 1, unknownAttempts: 0 });
    }
    expect((await stack.now()).getTime() - startedAt.getTime()).toBeGreaterThanOrEqual(months * 30 * day);

    const state = await getRecurrence(ctx, { externalId: request.external_id });
    expect(state).toMatchObject({
      phase: 'active',
      recurrenceId: recurrence.id,
      attemptsByStatus: { settled: 12, failed: 4 },
      updates: { applied: 16, fromSync: 16, duplicates: 0 },
      archived: { count: 11, byStatus: { settled: 8, failed: 3 } },
    });
    expect(state.attempts.map((a) => a.timestamp.slice(0, 10))).toEqual([
      '2031-12-10',
      '2031-12-05',
      '2031-11-05',
      '2031-10-05',
      '2031-09-10',
    ]);
    expect(state.runs).toBeGreaterThan(2);

    // The task that applies the last batch may also continue the workflow as new, so the runs listed and the
    // runs the state counts are compared from reads made together.
    const { lengths } = await eventually(
      async () => ({
        lengths: await runHistoryLengths(ctx.client, workflowId),
        runs: (await getRecurrence(ctx, { externalId: request.external_id })).runs,
      }),
      ({ lengths, runs }) => lengths.length === runs,
    );
    // A run past its bound first hands its notifications over: one batch of attempts' hand-offs beyond it at
    // most.
    for (const length of lengths) expect(length).toBeLessThanOrEqual(maxHistoryEvents + 20);
    // The run now open began months after the first, in server time.
    const latest = await ctx.client.workflow.getHandle(workflowId).describe();
    expect(latest.status.name).toBe('RUNNING');
    expect(latest.startTime.getTime() - startedAt.getTime()).toBeGreaterThanOrEqual(60 * day);
  });

  it('continues as new after 30 days with no attempt due, and a webhook delivered again across it reads nothing', async () => {
    const request = recurrenceRequest(stack);
    const { recurrence, workflowId } = await startRecurrence(ctx, request);
    const firstRun = await ctx.client.workflow.getHandle(workflowId).describe();
    const produced = await control(stack, 'POST', `/sandbox/recurrences/${recurrence.id}/attempts`, {
      attempts: [{ status: 'settled', timestamp: monthStart(1) }],
    });
    const [attempt] = produced as unknown as CollectionAttempt[];
    const webhook = collectionAttemptWebhook(attempt!);
    const handle = ctx.client.workflow.getHandle(workflowId);
    await handle.signal(recurrenceWebhookSignal, webhook);
    const confirmed = await eventually(
      () => getRecurrence(ctx, { externalId: request.external_id }),
      (state) => state.attempts.length === 1 && state.awaitingConfirmation === undefined,
    );
    expect(confirmed).toMatchObject({
      runs: 1,
      attemptsByStatus: { settled: 1 },
      updates: { applied: 1, fromWebhooks: 1, duplicates: 0 },
    });

    await stack.skip(runLifetime.maxMs + day);
    const runs = await eventually(
      () => runsOf(ctx.client, workflowId),
      (list) => list.length === 2,
    );
    expect(runs[0]).toMatchObject({ runId: firstRun.runId, continuedAsNew: true });
    const secondRun = await ctx.client.workflow.getHandle(workflowId, runs[1]!.runId).describe();
    const lived = secondRun.startTime.getTime() - firstRun.startTime.getTime();
    expect(lived).toBeGreaterThanOrEqual(runLifetime.maxMs);
    expect(lived).toBeLessThan(runLifetime.maxMs + day);

    await handle.signal(recurrenceWebhookSignal, webhook);
    const after = await eventually(
      () => getRecurrence(ctx, { externalId: request.external_id }),
      (state) => state.updates.duplicateWebhooks === 1,
    );
    expect(after).toMatchObject({
      runs: 2,
      attemptsByStatus: { settled: 1 },
      updates: { applied: 1, fromWebhooks: 1, duplicates: 0 },
    });
    expect(after.awaitingConfirmation).toBeUndefined();
    const history = await ctx.client.workflow.getHandle(workflowId, runs[1]!.runId).fetchHistory();
    expect((history.events ?? []).filter((event) => event.activityTaskScheduledEventAttributes)).toHaveLength(
      0,
    );
  });
});

import { startTunedRecurrence } from '../../src/starter/recurrences.js';
import { getRecurrence, runAttemptsSync, type StarterContext } from '../../src/starter/index.js';
import { control, eventually } from '../helpers/journey.js';
import { recurrenceRequest, runHistoryLengths } from '../helpers/recurrences.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';

const day = 24 * 60 * 60_000;
const maxHistoryEvents = 20;
const months = 12;

const monthStart = (month: number) =>
  new Date(Date.UTC(2031, month - 1, 1)).toISOString().replace('.000Z', 'Z');

describe('a recurrence followed for a year, on a time-skipping server', () => {
  let stack: TimeSkippingStack;
  // Time moves only when the test skips it: a recurrence waits with no timer of its own, so awaiting the sync's
  // result with the time-skipping client would let the test server time it out (test/helpers/time-skipping.ts).
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

    // Each month the bank tries once and, every third month, fails and retries five days later; the monthly sync
    // of attempts (the Schedule's job) brings them to the workflow.
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

    // The task that applies the last batch may also continue the workflow as new, so the runs listed and the runs
    // the state counts are compared from reads made together.
    const { lengths } = await eventually(
      async () => ({
        lengths: await runHistoryLengths(ctx.client, workflowId),
        runs: (await getRecurrence(ctx, { externalId: request.external_id })).runs,
      }),
      ({ lengths, runs }) => lengths.length === runs,
    );
    for (const length of lengths) expect(length).toBeLessThanOrEqual(maxHistoryEvents + 10);
    // The run now open began months after the first, in server time.
    const latest = await ctx.client.workflow.getHandle(workflowId).describe();
    expect(latest.status.name).toBe('RUNNING');
    expect(latest.startTime.getTime() - startedAt.getTime()).toBeGreaterThanOrEqual(60 * day);
  });
});

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { History } from '@temporalio/common/lib/proto-utils.js';
import { getRecurrence, runAttemptsSync, startRecurrence } from '../../src/starter/index.js';
import { unknownRecurrencesKept, type UnknownRecurrence } from '../../src/contract/attempts-sync.js';
import { workflowIds } from '../../src/contract/ids.js';
import { fixedNow } from '../helpers/data-sandbox.js';
import { control, eventually } from '../helpers/journey.js';
import { attemptsIn, countByStatus, recurrenceRequest } from '../helpers/recurrences.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/** The bytes of every payload an event carries (its Uint8Arrays: payload data and metadata). */
function payloadBytes(value: unknown): number {
  if (value instanceof Uint8Array) return value.byteLength;
  if (!value || typeof value !== 'object') return 0;
  return Object.values(value).reduce<number>((sum, member) => sum + payloadBytes(member), 0);
}

/** Every run's history of a workflow, first to last, following continue-as-new. */
async function runHistories(stack: TestStack, workflowId: string): Promise<History[]> {
  const latest = await stack.client.workflow.getHandle(workflowId).describe();
  let runId: string | undefined = latest.raw.workflowExecutionInfo?.firstRunId ?? latest.runId;
  const histories: History[] = [];
  while (runId) {
    const history = await stack.client.workflow.getHandle(workflowId, runId).fetchHistory();
    histories.push(history);
    runId =
      history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return histories;
}

describe('syncRecurrenceAttempts at scale', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({ now: fixedNow });
  });
  afterAll(() => stack?.stop());

  // 50,000 recurrences with no workflow: each costs the sync a signal Temporal refuses and a describe, the
  // same payload-wise as a followed one (its external id in the delivery) without starting 50,000 workflows.
  it('syncs 50,000 distinct recurrences in one window with every payload far below 2 MB', async () => {
    const window = { from: '2023-03-01T00:00:00.000Z', to: '2023-03-01T01:00:00.000Z' };
    expect(attemptsIn(stack.sandbox, window.from, window.to)).toHaveLength(0);
    const template = stack.sandbox.state.bankData.attempts.values().next().value!;
    const distinct = 50_000;
    const start = Date.parse(window.from);
    for (let index = 0; index < distinct; index++) {
      const id = randomUUID();
      stack.sandbox.state.bankData.attempts.set(id, {
        ...template,
        id,
        external_id: `scale-${index}`,
        recurrence_id: randomUUID(),
        status: index % 3 === 0 ? 'failed' : 'settled',
        timestamp: new Date(start + Math.floor((index * 3_600_000) / distinct)).toISOString(),
      });
    }
    const followed = (await startRecurrence(stack, recurrenceRequest(stack))).recurrence;
    await control(stack, 'POST', `/sandbox/recurrences/${followed.id}/attempts`, {
      attempts: [
        { status: 'failed', timestamp: '2023-03-01T00:10:00Z' },
        { status: 'settled', timestamp: '2023-03-01T00:50:00Z' },
      ],
    });
    const inWindow = attemptsIn(stack.sandbox, window.from, window.to);
    expect(inWindow).toHaveLength(distinct + 2);

    const started = performance.now();
    const summary = await runAttemptsSync(stack, { ...window, pageSize: 100, pagesPerRun: 200 });
    const seconds = (performance.now() - started) / 1000;

    expect(summary).toMatchObject({
      attempts: distinct + 2,
      pages: Math.ceil((distinct + 2) / 100),
      byStatus: countByStatus(inWindow),
      recurrencesUpdated: 1,
      unknownRecurrenceCount: distinct,
      unknownAttempts: distinct,
      runs: 3,
    });
    expect(summary.unknownRecurrences).toHaveLength(unknownRecurrencesKept);
    const listed = (await readFile(summary.unknownRecurrencesFile!, 'utf8'))
      .split('\n')
      .filter((line) => line)
      .map((line) => JSON.parse(line) as UnknownRecurrence);
    expect(new Set(listed.map((entry) => entry.externalId))).toEqual(
      new Set(Array.from({ length: distinct }, (_, index) => `scale-${index}`)),
    );
    expect(listed.every((entry) => entry.workflow === 'missing' && entry.attempts === 1)).toBe(true);

    const state = await eventually(
      () => getRecurrence(stack, { externalId: followed.external_id }),
      (s) => s.updates.fromSync === 2,
    );
    expect(state.attemptsByStatus).toEqual({ failed: 1, settled: 1 });

    const histories = await runHistories(stack, workflowIds.attemptsSync(window.from, window.to));
    expect(histories).toHaveLength(3);
    const events = histories.flatMap((history) => history.events ?? []);
    expect(events.filter((event) => event.workflowTaskFailedEventAttributes)).toEqual([]);
    const largest = Math.max(...events.map(payloadBytes));
    const timedOut = events.filter((event) => event.workflowTaskTimedOutEventAttributes).length;
    const tasks = events.filter((event) => event.workflowTaskStartedEventAttributes).length;
    // An activity retried (its heartbeat lost under load) delivers its pages again: printed, as the time is.
    const retried = events.filter(
      (event) => (event.activityTaskStartedEventAttributes?.attempt ?? 1) > 1,
    ).length;
    process.stdout.write(
      `50,000 recurrences: ${seconds.toFixed(1)} s, largest event payload ${largest} B, ${events.length} events, ${tasks} workflow tasks, ${timedOut} timed out, ${retried} activities retried\n`,
    );
    expect(largest).toBeLessThan(256 * 1024);
    // 40 to 60 s here, in the jest process of its own a full run gives test/scale/ (scripts/run-tests.mjs);
    // the time is printed, not asserted (docs/performance.md keeps speed targets in benchmarks).
  }, 600_000);
});

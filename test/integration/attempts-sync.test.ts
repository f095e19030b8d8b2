import { readFile } from 'node:fs/promises';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import { collectionAttemptsPath } from '../../devkit/sandbox/routes/recurrences.js';
import {
  getRecurrence,
  InvalidInputError,
  runAttemptsSync,
  startRecurrence,
} from '../../src/starter/index.js';
import { unknownRecurrencesKept, type UnknownRecurrence } from '../../src/contract/attempts-sync.js';
import { workflowIds } from '../../src/contract/ids.js';
import { recurrenceAttemptsSignal } from '../../src/contract/temporal.js';
import { fixedNow } from '../helpers/data-sandbox.js';
import { control, eventually } from '../helpers/journey.js';
import {
  attemptsIn,
  expectedSummary,
  recordAttemptsListRequests,
  recurrenceRequest,
  runHistoryLengths,
  signalsReceived,
  type AttemptsListRequest,
} from '../helpers/recurrences.js';
import { recordHistory } from '../helpers/replay.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

describe('syncRecurrenceAttempts against the seeded sandbox bank', () => {
  let stack: TestStack;
  let requests: AttemptsListRequest[];

  /** A recurrence of this test's own, generated through its workflow. */
  const adopt = async (externalId: string) =>
    (await startRecurrence(stack, recurrenceRequest(stack, { external_id: externalId }))).recurrence;
  const bulk = (recurrenceId: string, body: Record<string, unknown>) =>
    control(stack, 'POST', `/sandbox/recurrences/${recurrenceId}/attempts/bulk`, body);
  const syncHandle = (from: string, to: string) =>
    stack.client.workflow.getHandle(workflowIds.attemptsSync(from, to));

  beforeAll(async () => {
    stack = await startTestStack({ now: fixedNow });
    requests = recordAttemptsListRequests(stack.sandbox);
  });
  afterAll(() => stack?.stop());

  it('covers a window with no attempt in one empty page', async () => {
    const window = { from: '2024-01-01T00:00:00.000Z', to: '2024-02-01T00:00:00.000Z' };
    expect(attemptsIn(stack.sandbox, window.from, window.to)).toHaveLength(0);
    const summary = await runAttemptsSync(stack, window);
    expect(summary).toEqual({
      ...window,
      pages: 1,
      attempts: 0,
      byStatus: {},
      recurrencesUpdated: 0,
      signals: 0,
      unknownRecurrences: [],
      unknownRecurrenceCount: 0,
      unknownAttempts: 0,
      runs: 1,
    });
  });

  it('keeps an attempt whose recurrence has no workflow in the summary', async () => {
    const byTime = new Map<string, CollectionAttempt[]>();
    for (const attempt of stack.sandbox.state.bankData.attempts.values()) {
      byTime.set(attempt.timestamp, [...(byTime.get(attempt.timestamp) ?? []), attempt]);
    }
    const [only] = [...byTime.values()].find((group) => group.length === 1)!;
    const from = new Date(only!.timestamp).toISOString();
    const window = { from, to: new Date(Date.parse(from) + 1).toISOString() };
    expect(attemptsIn(stack.sandbox, window.from, window.to)).toEqual([only]);

    const summary = await runAttemptsSync(stack, window);
    expect(summary).toMatchObject({
      pages: 1,
      attempts: 1,
      byStatus: { [only!.status]: 1 },
      recurrencesUpdated: 0,
      unknownAttempts: 1,
      unknownRecurrences: [
        {
          externalId: only!.external_id,
          recurrenceId: only!.recurrence_id,
          workflow: 'missing',
          attempts: 1,
          attemptIds: [only!.id],
        },
      ],
    });
  });

  it('pages through a month of seeded attempts, updating the recurrences that have a workflow', async () => {
    const window = { from: '2025-05-01T00:00:00.000Z', to: '2025-06-01T00:00:00.000Z' };
    const seeded = attemptsIn(stack.sandbox, window.from, window.to);
    expect(seeded.length).toBeGreaterThan(50);

    // Seeded external ids are the same in every test's sandbox and workflow ids are namespace-wide, so the
    // recurrences followed here are this test's own, with attempts placed among the seeded ones.
    const followed = [];
    for (const day of ['05', '12', '19']) {
      const recurrence = await adopt(`month-${day}-${Date.now()}`);
      await control(stack, 'POST', `/sandbox/recurrences/${recurrence.id}/attempts`, {
        attempts: [
          { status: 'failed', timestamp: `2025-05-${day}T09:00:00Z` },
          { status: 'settled', timestamp: `2025-05-${day}T15:30:00Z` },
          { status: 'created', timestamp: `2025-05-${day}T23:00:00Z` },
        ],
      });
      followed.push(recurrence);
    }
    const rejected = (
      await startRecurrence(
        stack,
        recurrenceRequest(stack, { external_id: `month-rejected-${Date.now()}`, amounts: { minimum: 992 } }),
      )
    ).recurrence;
    await stack.client.workflow.getHandle(workflowIds.recurrence(rejected.external_id)).result();
    await control(stack, 'POST', `/sandbox/recurrences/${rejected.id}/attempts`, {
      attempts: [{ status: 'cancelled', timestamp: '2025-05-20T09:00:00Z' }],
    });

    const inWindow = attemptsIn(stack.sandbox, window.from, window.to);
    expect(inWindow).toHaveLength(seeded.length + 10);
    const summary = await runAttemptsSync(stack, window);
    const followedIds = new Set(followed.map((r) => r.external_id));
    expect(summary).toMatchObject({
      ...expectedSummary(inWindow, followedIds),
      recurrencesUpdated: 3,
      pages: Math.ceil(inWindow.length / 50),
      runs: 1,
    });
    const present = new Set(inWindow.map((attempt) => attempt.external_id));
    expect(summary.unknownRecurrenceCount).toBe(present.size - followed.length);
    expect(summary.unknownRecurrences).toHaveLength(
      Math.min(unknownRecurrencesKept, present.size - followed.length),
    );
    const listed = (await readFile(summary.unknownRecurrencesFile!, 'utf8'))
      .split('\n')
      .filter((line) => line)
      .map((line) => JSON.parse(line) as UnknownRecurrence);
    const unknown = new Map(listed.map((entry) => [entry.externalId, entry]));
    expect(unknown.size).toBe(present.size - followed.length);
    for (const sampled of summary.unknownRecurrences)
      expect(unknown.get(sampled.externalId)).toEqual(sampled);
    expect(unknown.get(rejected.external_id)).toMatchObject({ workflow: 'closed', attempts: 1 });
    for (const entry of unknown.values()) {
      const theirs = inWindow.filter((attempt) => attempt.external_id === entry.externalId);
      expect(entry.attempts).toBe(theirs.length);
      expect(entry.attemptIds.sort()).toEqual(theirs.map((attempt) => attempt.id).sort());
      if (entry.externalId !== rejected.external_id) expect(entry.workflow).toBe('missing');
    }

    for (const recurrence of followed) {
      const theirs = inWindow.filter((attempt) => attempt.external_id === recurrence.external_id);
      const state = await eventually(
        () => getRecurrence(stack, { externalId: recurrence.external_id }),
        (s) => s.updates.fromSync === theirs.length,
      );
      expect(state.attempts.map((a) => [a.id, a.status]).sort()).toEqual(
        theirs.map((attempt) => [attempt.id, attempt.status]).sort(),
      );
      expect(state.attemptsByStatus).toEqual({ failed: 1, settled: 1, created: 1 });
      expect(state.updates).toMatchObject({ applied: 3, duplicates: 0 });
    }
  });

  it('covers the time since the previous scheduled time when a Schedule starts it without input', async () => {
    const { id, external_id } = await adopt(`scheduled-${Date.now()}`);
    await control(stack, 'POST', `/sandbox/recurrences/${id}/attempts`, {
      // A scheduled time is in whole seconds: the attempt must be earlier than the second the trigger lands
      // in.
      attempts: [{ status: 'settled', timestamp: new Date(Date.now() - 2_000).toISOString() }],
    });
    const hourMs = 3_600_000;
    const schedule = await stack.client.schedule.create({
      scheduleId: `test-attempts-sync-${Date.now()}`,
      spec: { cronExpressions: ['0 * * * *'] },
      action: {
        type: 'startWorkflow',
        workflowType: 'syncRecurrenceAttempts',
        args: [],
        taskQueue: stack.taskQueue,
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP },
    });
    try {
      await schedule.trigger();
      const described = await eventually(
        () => schedule.describe(),
        (d) => d.info.recentActions.length > 0,
      );
      const run = stack.client.workflow.getHandle(
        described.info.recentActions[0]!.action.workflow.workflowId,
      );
      const summary = await run.result();
      const [scheduledAt] = (await run.describe()).searchAttributes.TemporalScheduledStartTime as Date[];
      const previousHour = new Date(Math.floor((scheduledAt!.getTime() - 1) / hourMs) * hourMs);
      expect(summary).toMatchObject({
        from: previousHour.toISOString(),
        to: scheduledAt!.toISOString(),
        ...expectedSummary(attemptsIn(stack.sandbox, summary.from, summary.to), new Set([external_id])),
      });
      expect(summary.recurrencesUpdated).toBe(1);
    } finally {
      await schedule.delete();
    }
  });

  it('refuses a window that is not one before starting anything', async () => {
    await expect(
      runAttemptsSync(stack, { from: '2025-05-02T00:00:00Z', to: '2025-05-01T00:00:00Z' }),
    ).rejects.toThrow(new InvalidInputError('to', 'must be later than from'));
    await expect(runAttemptsSync(stack, { from: 'yesterday', to: '2025-05-01T00:00:00Z' })).rejects.toThrow(
      /^from: /,
    );
    await expect(
      runAttemptsSync(stack, { from: '2025-05-01T00:00:00Z', to: '2025-05-02T00:00:00Z', pageSize: 500 }),
    ).rejects.toThrow(/^pageSize: /);
  });

  it('resumes from the last cursor after a bank outage mid-sync, fetching no page twice', async () => {
    const { id, external_id } = await adopt(`outage-${Date.now()}`);
    const window = { from: '2031-01-01T00:00:00.000Z', to: '2031-01-02T00:00:00.000Z' };
    await bulk(id, { count: 400, statuses: ['settled', 'failed'], ...window });
    await control(stack, 'PUT', '/sandbox/faults', { latency_ms: 100 });
    requests.length = 0;
    try {
      const result = runAttemptsSync(stack, window);
      await eventually(
        async () => requests.filter((request) => request.status === 200).length,
        (ok) => ok >= 3,
      );
      await control(stack, 'PUT', '/sandbox/faults', {
        latency_ms: 100,
        fail_next: [{ path_prefix: collectionAttemptsPath, count: 3, status: 503 }],
      });
      const summary = await result;
      expect(summary).toMatchObject({
        ...expectedSummary(attemptsIn(stack.sandbox, window.from, window.to), new Set([external_id])),
        pages: 8,
      });
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }

    const succeeded = requests.filter((request) => request.status === 200);
    const failed = requests.filter((request) => request.status === 503);
    expect(succeeded).toHaveLength(8);
    expect(new Set(succeeded.map((request) => request.after)).size).toBe(8);
    expect(failed).toHaveLength(3);
    expect(new Set(failed.map((request) => request.after)).size).toBe(1);
    const retried = failed[0]!.after;
    expect(succeeded.filter((request) => request.after === retried)).toHaveLength(1);

    const state = await eventually(
      () => getRecurrence(stack, { externalId: external_id }),
      (s) => s.updates.fromSync === 400,
    );
    expect(state.updates.duplicates).toBe(0);
    expect(state.attemptsByStatus).toEqual({ settled: 200, failed: 200 });
    await recordHistory(stack.client, workflowIds.attemptsSync(window.from, window.to), 'attempts-sync');
  });

  it('finishes the sync when the worker restarts in the middle of it', async () => {
    const { id, external_id } = await adopt(`restart-${Date.now()}`);
    const window = { from: '2031-02-01T00:00:00.000Z', to: '2031-02-02T00:00:00.000Z' };
    await bulk(id, { count: 400, statuses: ['settled', 'failed', 'cancelled', 'created'], ...window });
    await control(stack, 'PUT', '/sandbox/faults', { latency_ms: 150 });
    requests.length = 0;
    try {
      // A worker stopping finishes the task in hand, a page activity of a run's pages or a workflow task:
      // runs of two pages leave the sync with runs to go when the worker stops.
      const result = runAttemptsSync(stack, { ...window, pagesPerRun: 2 });
      const handle = syncHandle(window.from, window.to);
      await eventually(
        async () => requests.filter((request) => request.status === 200).length,
        (ok) => ok >= 2,
      );
      await stack.stopWorker();
      const stopped = await handle.describe();
      expect(stopped.status.name).toBe('RUNNING');
      await stack.restartWorker();
      const summary = await result;
      expect(summary).toMatchObject({
        ...expectedSummary(attemptsIn(stack.sandbox, window.from, window.to), new Set([external_id])),
        pages: 8,
      });
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
    const state = await eventually(
      () => getRecurrence(stack, { externalId: external_id }),
      (s) => Object.values(s.attemptsByStatus).reduce((a, b) => a + b, 0) === 400,
    );
    expect(state.attemptsByStatus).toEqual({ settled: 100, failed: 100, cancelled: 100, created: 100 });
  });

  it('syncs 10,000 attempts with every run of its history no longer than a 1,000-attempt sync', async () => {
    const { id, external_id } = await adopt(`bulk-${Date.now()}`);
    const small = { from: '2032-01-01T00:00:00.000Z', to: '2032-01-02T00:00:00.000Z' };
    const large = { from: '2032-02-01T00:00:00.000Z', to: '2032-02-02T00:00:00.000Z' };
    await bulk(id, { count: 1_000, statuses: ['settled', 'failed'], ...small });
    await bulk(id, { count: 10_000, statuses: ['settled', 'failed'], ...large });
    const settings = { pageSize: 50, pagesPerRun: 10 };

    const smallSummary = await runAttemptsSync(stack, { ...small, ...settings });
    const largeSummary = await runAttemptsSync(stack, { ...large, ...settings });
    expect(smallSummary).toMatchObject({ attempts: 1_000, pages: 20, runs: 2, recurrencesUpdated: 1 });
    expect(largeSummary).toMatchObject({
      ...expectedSummary(attemptsIn(stack.sandbox, large.from, large.to), new Set([external_id])),
      attempts: 10_000,
      pages: 200,
      runs: 20,
      // Each run is one batch of ten pages; its 500 attempts of the one recurrence go out in one signal.
      signals: 20,
    });

    const smallRuns = await runHistoryLengths(stack.client, workflowIds.attemptsSync(small.from, small.to));
    const largeRuns = await runHistoryLengths(stack.client, workflowIds.attemptsSync(large.from, large.to));
    expect(smallRuns).toHaveLength(2);
    expect(largeRuns).toHaveLength(20);
    // A batch of pages costs the run one marker event, so a run's history stays far under 100 events.
    for (const length of [...smallRuns, ...largeRuns]) expect(length).toBeLessThan(100);
    expect(Math.max(...largeRuns)).toBeLessThanOrEqual(Math.max(...smallRuns));

    const state = await eventually(
      () => getRecurrence(stack, { externalId: external_id }),
      (s) => s.updates.fromSync === 11_000,
      60_000,
    );
    expect(state.attemptsByStatus).toEqual({ settled: 5_500, failed: 5_500 });
    expect(state.attempts.length).toBeLessThanOrEqual(500);
    for (const length of await runHistoryLengths(stack.client, workflowIds.recurrence(external_id))) {
      expect(length).toBeLessThan(2_100);
    }
  }, 120_000);

  it('pages a large window in one run of batches of 100 pages by default', async () => {
    const { id, external_id } = await adopt(`long-run-${Date.now()}`);
    const window = { from: '2032-03-01T00:00:00.000Z', to: '2032-03-02T00:00:00.000Z' };
    await bulk(id, { count: 6_000, statuses: ['settled', 'failed'], ...window });
    requests.length = 0;

    const summary = await runAttemptsSync(stack, window);
    // 120 pages of 50: a batch of 100 pages and one of 20, both in the one run. The one recurrence's attempts
    // go out in signals of at most 1,000 as its pages come: 6 when each delivery of at most 10 s holds a
    // multiple of 1,000, one more for each delivery a slow machine ends between two.
    expect(summary).toMatchObject({
      ...expectedSummary(attemptsIn(stack.sandbox, window.from, window.to), new Set([external_id])),
      attempts: 6_000,
      pages: 120,
      runs: 1,
    });
    expect(summary.signals).toBeGreaterThanOrEqual(6);
    expect(
      await signalsReceived(stack.client, workflowIds.recurrence(external_id), recurrenceAttemptsSignal.name),
    ).toBe(summary.signals);
    // Each page activity's reader fetches the next page ahead, never past its batch: none fetched twice.
    expect(requests).toHaveLength(120);
    expect(new Set(requests.map((request) => request.after)).size).toBe(120);
    const history = await syncHandle(window.from, window.to).fetchHistory();
    const localActivities = (history.events ?? []).flatMap((event) => {
      const data = event.markerRecordedEventAttributes?.details?.data?.payloads?.[0]?.data;
      return data
        ? [(JSON.parse(Buffer.from(data).toString('utf8')) as { activity_type: string }).activity_type]
        : [];
    });
    expect(localActivities).toEqual(['attemptsSyncPlan']);
    const queued = (history.events ?? []).flatMap((event) => {
      const name = event.activityTaskScheduledEventAttributes?.activityType?.name;
      return name ? [name] : [];
    });
    expect(queued).toEqual([
      'deliverAttemptsPages',
      'deliverAttemptsPages',
      'summarizeAttemptsSyncRecurrences',
    ]);
    await eventually(
      () => getRecurrence(stack, { externalId: external_id }),
      (s) => s.updates.fromSync === 6_000,
      60_000,
    );
  }, 120_000);
});

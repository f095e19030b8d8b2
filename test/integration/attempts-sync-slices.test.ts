import { collectionAttemptsPath } from '../../devkit/sandbox/routes/recurrences.js';
import { getRecurrence, runAttemptsSync, startRecurrence } from '../../src/starter/index.js';
import { workflowIds } from '../../src/contract/ids.js';
import { planSlices } from '../../src/workflows/sync/attempts-slices.js';
import { fixedNow } from '../helpers/data-sandbox.js';
import { control, eventually } from '../helpers/journey.js';
import {
  attemptsIn,
  countByStatus,
  expectedSummary,
  recordAttemptsListRequests,
  recurrenceRequest,
  type AttemptsListRequest,
} from '../helpers/recurrences.js';
import { recordHistory } from '../helpers/replay.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/**
 * The background queue's rate, where the sync's pages run: BANK_RATE_LIMIT_PER_SECOND four times this, half
 * of it interactive and a quarter the polls' (which this test leaves unused); the sandbox answers 429 past
 * it.
 */
const limit = 20;

/** Answered pages per second over the middle 80 % of them, past the first burst and before the tail. */
function sustainedRate(answered: AttemptsListRequest[]): number {
  const times = answered.map((request) => request.at).sort((a, b) => a - b);
  const first = Math.floor(times.length * 0.1);
  const last = Math.ceil(times.length * 0.9) - 1;
  return (last - first) / (((times[last] ?? 0) - (times[first] ?? 0)) / 1_000);
}

describe('syncRecurrenceAttempts in time slices, paced by the fleet-wide bank rate limit', () => {
  let stack: TestStack;
  let requests: AttemptsListRequest[];

  const adopt = async (label: string) =>
    (await startRecurrence(stack, recurrenceRequest(stack, { external_id: `${label}-${Date.now()}` })))
      .recurrence;
  const bulk = (recurrenceId: string, body: Record<string, unknown>) =>
    control(stack, 'POST', `/sandbox/recurrences/${recurrenceId}/attempts/bulk`, body);
  /**
   * Recurrences with `each` attempts apiece spread over the window: a recurrence archives its oldest final
   * attempts past 500, and slices deliver out of time order, so no recurrence here gets more than 500.
   */
  const adoptMany = async (
    label: string,
    count: number,
    each: number,
    statuses: string[],
    window: object,
  ) => {
    const externalIds = new Set<string>();
    for (let index = 0; index < count; index++) {
      const { id, external_id } = await adopt(`${label}-${index}`);
      await bulk(id, { count: each, statuses, ...window });
      externalIds.add(external_id);
    }
    return externalIds;
  };
  const delivered = (externalIds: Set<string>) =>
    Promise.all(
      [...externalIds].map((externalId) =>
        eventually(
          () => getRecurrence(stack, { externalId }),
          (s) => Object.values(s.attemptsByStatus).reduce((a, b) => a + b, 0) === 400,
        ),
      ),
    );
  const limited = () => {
    const counts = stack.sandbox.rateLimit;
    if (!counts) throw new Error('the sandbox was started without a rate limit');
    return counts;
  };
  /**
   * The pages the slices of a window take: each slice pages its own attempts, 50 a page, one page if it has
   * none.
   */
  const pagesOf = (window: { from: string; to: string }) =>
    planSlices(window, limit).slices.reduce(
      (pages, slice) =>
        pages + Math.max(1, Math.ceil(attemptsIn(stack.sandbox, slice.from, slice.to).length / 50)),
      0,
    );
  const answered = (status: number) => requests.filter((request) => request.status === status);

  beforeAll(async () => {
    stack = await startTestStack({
      now: fixedNow,
      bank: { requestsPerSecond: 4 * limit, interactiveSharePercent: 50, pollReadsPerSecond: limit },
      sandbox: { rateLimit: { requestsPerSecond: limit } },
    });
    requests = recordAttemptsListRequests(stack.sandbox);
  });
  afterAll(() => stack?.stop());

  it('delivers every attempt exactly once across the slices, those on slice boundaries included, with no 429', async () => {
    const { id, external_id } = await adopt('slices');
    const window = { from: '2033-01-01T00:00:00.000Z', to: '2033-01-02T00:00:00.000Z' };
    const plan = planSlices(window, limit);
    // Chains enough for round trips of up to half a second at 20 calls a second, four slices a chain.
    expect(plan.concurrency).toBe(10);
    expect(plan.slices).toHaveLength(40);
    await bulk(id, { count: 1_000, statuses: ['settled', 'failed'], ...window });
    // One more on every slice's first instant and one on the window's end, which belongs to the next window.
    const boundaries = [...plan.slices.map((slice) => slice.from), window.to];
    await control(stack, 'POST', `/sandbox/recurrences/${id}/attempts`, {
      attempts: boundaries.map((timestamp) => ({ status: 'cancelled', timestamp })),
    });
    const inWindow = attemptsIn(stack.sandbox, window.from, window.to);
    expect(inWindow).toHaveLength(1_040);
    requests.length = 0;
    const admitted = limited().admitted;

    const summary = await runAttemptsSync(stack, window);
    expect(summary).toMatchObject({
      ...expectedSummary(inWindow, new Set([external_id])),
      byStatus: { settled: 500, failed: 500, cancelled: 40 },
      recurrencesUpdated: 1,
    });
    // One run of the sync and one of each slice, each slice's pages signalled in one go.
    expect(summary.runs).toBe(41);
    expect(summary.signals).toBe(40);
    expect(summary.pages).toBe(pagesOf(window));
    expect(answered(200)).toHaveLength(summary.pages);
    expect(limited().admitted - admitted).toBe(requests.length);
    expect(limited().refused).toBe(0);

    const state = await eventually(
      () => getRecurrence(stack, { externalId: external_id }),
      (s) => s.updates.fromSync === inWindow.length,
    );
    expect(state.updates.duplicates).toBe(0);
    expect(state.attemptsByStatus).toEqual(countByStatus(inWindow));
    const parent = workflowIds.attemptsSync(window.from, window.to);
    await recordHistory(stack.client, parent, 'attempts-sync-slices');
    const [first] = plan.slices;
    await recordHistory(stack.client, workflowIds.attemptsSyncSlice(window, first!), 'attempts-sync-slice');
  }, 120_000);

  it('keeps to the limit while its slices page at once, and pages no faster than it', async () => {
    const { id, external_id } = await adopt('slices-paced');
    const window = { from: '2033-02-01T00:00:00.000Z', to: '2033-02-02T00:00:00.000Z' };
    await bulk(id, { count: 4_000, statuses: ['settled'], ...window });
    requests.length = 0;
    const admitted = limited().admitted;

    const summary = await runAttemptsSync(stack, window);
    expect(summary).toMatchObject({ attempts: 4_000, pages: pagesOf(window), recurrencesUpdated: 1 });
    expect(answered(429)).toEqual([]);
    expect(limited().admitted - admitted).toBe(summary.pages);
    // The sandbox's own count (no 429 above) is the limit; this estimate, from arrival times over the middle
    // of the run, carries the jitter of a loaded machine and of the bucket Temporal's limiter refills, hence
    // the margin.
    expect(sustainedRate(answered(200))).toBeLessThanOrEqual(limit * 1.2);
    await eventually(
      () => getRecurrence(stack, { externalId: external_id }),
      (s) => s.updates.fromSync === 4_000,
    );
  }, 120_000);

  it('resumes after a bank outage mid-sync, fetching each page once', async () => {
    const window = { from: '2033-03-01T00:00:00.000Z', to: '2033-03-02T00:00:00.000Z' };
    const followed = await adoptMany('slices-outage', 4, 400, ['settled', 'failed'], window);
    await control(stack, 'PUT', '/sandbox/faults', { latency_ms: 100 });
    requests.length = 0;
    try {
      const result = runAttemptsSync(stack, window);
      await eventually(
        async () => answered(200).length,
        (ok) => ok >= 10,
      );
      await control(stack, 'PUT', '/sandbox/faults', {
        latency_ms: 100,
        fail_next: [{ path_prefix: collectionAttemptsPath, count: 3, status: 503 }],
      });
      const summary = await result;
      expect(summary).toMatchObject({
        ...expectedSummary(attemptsIn(stack.sandbox, window.from, window.to), followed),
        attempts: 1_600,
        pages: pagesOf(window),
      });
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
    expect(answered(503)).toHaveLength(3);
    expect(answered(200)).toHaveLength(pagesOf(window));
    for (const state of await delivered(followed)) {
      expect(state.updates).toMatchObject({ fromSync: 400, duplicates: 0 });
      expect(state.attemptsByStatus).toEqual({ settled: 200, failed: 200 });
    }
  }, 120_000);

  it('finishes the sync when the worker restarts in the middle of it', async () => {
    const window = { from: '2033-04-01T00:00:00.000Z', to: '2033-04-02T00:00:00.000Z' };
    const statuses = ['settled', 'failed', 'cancelled', 'created'];
    const followed = await adoptMany('slices-restart', 8, 400, statuses, window);
    await control(stack, 'PUT', '/sandbox/faults', { latency_ms: 100 });
    requests.length = 0;
    try {
      const result = runAttemptsSync(stack, { ...window, pagesPerRun: 1 });
      await eventually(
        async () => answered(200).length,
        (ok) => ok >= 20,
      );
      await stack.stopWorker();
      const stopped = await stack.client.workflow
        .getHandle(workflowIds.attemptsSync(window.from, window.to))
        .describe();
      expect(stopped.status.name).toBe('RUNNING');
      await stack.restartWorker();
      const summary = await result;
      expect(summary).toMatchObject({
        ...expectedSummary(attemptsIn(stack.sandbox, window.from, window.to), followed),
        attempts: 3_200,
        pages: pagesOf(window),
      });
    } finally {
      await control(stack, 'PUT', '/sandbox/faults', {});
    }
    // A slice whose signals went out just before the worker stopped signals them again after: duplicates, at
    // most.
    for (const state of await delivered(followed)) {
      expect(state.attemptsByStatus).toEqual({ settled: 100, failed: 100, cancelled: 100, created: 100 });
    }
    // A page task the stopping worker took off the queue as it stopped polling never runs: the server retries
    // it once its start-to-close has passed, so that timeout is a bank read's 20 s, not minutes
    // (decisions.md).
    const [slice] = planSlices(window, limit).slices;
    const history = await stack.client.workflow
      .getHandle(workflowIds.attemptsSyncSlice(window, slice!))
      .fetchHistory();
    const pageTimeouts = (history.events ?? []).flatMap((event) => {
      const scheduled = event.activityTaskScheduledEventAttributes;
      return scheduled?.activityType?.name === 'fetchAttemptsSlicePage'
        ? [Number(scheduled.startToCloseTimeout?.seconds?.toString())]
        : [];
    });
    expect(pageTimeouts.length).toBeGreaterThan(0);
    expect(new Set(pageTimeouts)).toEqual(new Set([20]));
  }, 120_000);
});

import { randomUUID } from 'node:crypto';
import { ScheduleOverlapPolicy, type ScheduleHandle, type WorkflowExecutionInfo } from '@temporalio/client';
import type { ReportSummary } from '../../src/contract/jobs.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

/** Seconds, not days: the time-skipping test server implements no Schedule API (docs/decisions.md). */
const everyMs = 2000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const iso = (ms: number) => new Date(ms).toISOString();

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

describe('a schedule firing every 2 s on the dev server', () => {
  let stack: TestStack;
  let schedule: ScheduleHandle | undefined;

  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterAll(async () => {
    await schedule?.delete().catch(() => undefined);
    await stack?.stop();
  });

  /** Every run the schedule started, as visibility lists them. */
  async function runsOf(scheduleId: string): Promise<WorkflowExecutionInfo[]> {
    const runs: WorkflowExecutionInfo[] = [];
    for await (const run of stack.client.workflow.list({
      query: `TemporalScheduledById = '${scheduleId}'`,
    })) {
      runs.push(run);
    }
    return runs;
  }
  const withStatus = (runs: WorkflowExecutionInfo[], status: string) =>
    runs.filter((run) => run.status.name === status);
  const described = async () => (await (schedule as ScheduleHandle).describe()).info;

  it('covers every window exactly once through a skipped run, a failed run, a worker down across two scheduled times and a backfill', async () => {
    const scheduleId = `windows-${randomUUID().slice(0, 8)}`;
    schedule = await stack.client.schedule.create({
      scheduleId,
      spec: { intervals: [{ every: everyMs }] },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      action: { type: 'startWorkflow', workflowType: 'transferReport', taskQueue: stack.taskQueue, args: [] },
    });
    const completedAtLeast = (count: number) =>
      until(`${count} completed runs`, async () => {
        const completed = withStatus(await runsOf(scheduleId), 'COMPLETED');
        return completed.length >= count ? completed.length : undefined;
      });
    await completedAtLeast(1);

    // Skipped: the bank's transfer list fails twice, so a run outlasts the next scheduled time (overlap
    // SKIP).
    stack.sandbox.faults.configure({
      ...stack.sandbox.faults.current(),
      fail_next: [{ method: 'GET', path_prefix: '/banking/cashout/transfer', count: 2, status: 503 }],
    });
    await until('a skipped run', async () =>
      (await described()).numActionsSkippedOverlap >= 1 ? true : undefined,
    );
    await completedAtLeast(3);

    // Failed: a transfer in another currency fails the report of the window it falls in.
    const transfers = stack.sandbox.state.bankData.transfers;
    const template = transfers[0] as (typeof transfers)[number];
    const foreign = {
      ...template,
      id: randomUUID(),
      amount: { ...template.amount, currency: 'USD' },
      timestamp: new Date().toISOString(),
    };
    transfers.push(foreign);
    try {
      await until('a failed run', async () => {
        const failed = withStatus(await runsOf(scheduleId), 'FAILED');
        return failed.length > 0 ? failed : undefined;
      });
    } finally {
      transfers.splice(transfers.indexOf(foreign), 1);
    }

    // Worker down across two scheduled times and more: the run started meanwhile waits, the times after it
    // skip.
    const skippedBefore = (await described()).numActionsSkippedOverlap;
    await stack.stopWorker();
    await sleep(3.5 * everyMs);
    await stack.restartWorker();
    expect((await described()).numActionsSkippedOverlap).toBeGreaterThanOrEqual(skippedBefore + 2);
    const completedNow = withStatus(await runsOf(scheduleId), 'COMPLETED').length;
    await completedAtLeast(completedNow + 2);
    await schedule.pause('backfill');
    await until('no running run', async () =>
      (await described()).runningActions.length === 0 ? true : undefined,
    );

    // Backfill: the three scheduled times up to where the first run's window started ([start, end] holds both
    // ends), one after the other.
    const completedBeforeBackfill = withStatus(await runsOf(scheduleId), 'COMPLETED');
    const results = async (runs: WorkflowExecutionInfo[]) =>
      Promise.all(
        runs.map(async (run) => ({
          run,
          summary: (await stack.client.workflow
            .getHandle(run.workflowId, run.runId)
            .result()) as ReportSummary,
        })),
      );
    const scheduled = await results(completedBeforeBackfill);
    const firstFrom = Math.min(...scheduled.map(({ summary }) => Date.parse(summary.window.from)));
    await schedule.backfill({
      start: new Date(firstFrom - 3 * everyMs + 1000),
      end: new Date(firstFrom),
      overlap: ScheduleOverlapPolicy.BUFFER_ALL,
    });
    await completedAtLeast(completedBeforeBackfill.length + 3);
    await until('no running run', async () =>
      (await described()).runningActions.length === 0 ? true : undefined,
    );

    const all = await results(withStatus(await runsOf(scheduleId), 'COMPLETED'));
    const windows = all
      .map(({ summary }) => summary.window)
      .sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
    // No gap and no overlap: each completed window starts where the one before it ended.
    for (const [index, window] of windows.entries()) {
      expect(Date.parse(window.from)).toBeLessThan(Date.parse(window.to));
      if (index > 0) expect(window.from).toBe(windows[index - 1]?.to);
    }
    expect(windows[0]?.from).toBe(iso(firstFrom - 3 * everyMs));
    const latest = Math.max(
      ...all.map(({ run }) => run.searchAttributes.TemporalScheduledStartTime?.[0] as Date).map(Number),
    );
    expect(windows.at(-1)?.to).toBe(iso(latest));
    // The failed runs' times, and the skipped ones, lie inside a completed window.
    const failedTimes = withStatus(await runsOf(scheduleId), 'FAILED').map((run) =>
      Number(run.searchAttributes.TemporalScheduledStartTime?.[0] as Date),
    );
    expect(failedTimes.length).toBeGreaterThan(0);
    for (const at of failedTimes) {
      expect(windows.some((window) => Date.parse(window.from) < at && at <= Date.parse(window.to))).toBe(
        true,
      );
    }
    // A window that covers a failed or skipped time spans more than one interval.
    expect(windows.some((window) => Date.parse(window.to) - Date.parse(window.from) >= 3 * everyMs)).toBe(
      true,
    );
    // Every run answers where the covered time ends; it never moves back (the backfill left it where it was).
    for (const { summary } of all)
      expect(Date.parse(summary.coveredUntil ?? '')).toBeGreaterThanOrEqual(Date.parse(summary.window.to));
    const backfilled = all.filter(({ summary }) => Date.parse(summary.window.to) <= firstFrom);
    expect(backfilled).toHaveLength(3);
    for (const { summary } of backfilled) expect(Date.parse(summary.coveredUntil ?? '')).toBe(latest);
  });
});

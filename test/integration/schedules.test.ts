import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { createScheduleActivities } from '../../src/activities/schedules.js';
import type { SchedulesConfig } from '../../src/config.js';
import { scheduleDeclarations } from '../../src/schedules/declarations.js';
import { seededRandomFor } from '../../devkit/sandbox/seed/random.js';
import { seedWorld } from '../../devkit/sandbox/seed/world.js';
import {
  applySchedules,
  backfillSchedule,
  describeSchedule,
  InvalidInputError,
  listSchedules,
  pauseSchedule,
  triggerSchedule,
  unpauseSchedule,
  type SchedulesContext,
} from '../../src/starter/index.js';
import type { MetricsSnapshotResult, ReportSummary } from '../../src/contract/jobs.js';
import { maxScheduledTimesPerWindow } from '../../src/contract/schedule-coverage.js';
import * as workflows from '../../src/workflows/index.js';
import { windowFileBase } from '../../src/reports/files.js';
import { expectedIds, expectedTotals, type Window } from '../helpers/report-expectations.js';
import { recordHistory } from '../helpers/replay.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;
/** 06:00 in America/Sao_Paulo (UTC-3, no daylight saving since 2019) is 09:00 UTC. */
const reportHourUtc = 9;

/** The latest 09:00 UTC strictly before `at`: the previous time a daily 06:00 Sao Paulo schedule fired. */
function previousReportTime(at: Date): Date {
  const sameDay = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate(), reportHourUtc);
  return new Date(sameDay < at.getTime() ? sameDay : sameDay - dayMs);
}

const jobs = ['attempts-sync', 'refund-report', 'transfer-report', 'metrics-snapshot'];

/** Schedules whose id starts with `prefix`, as the server lists them once its visibility caught up. */
async function schedulesWithPrefix(client: Client, prefix: string, expected: number): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ids: string[] = [];
    for await (const schedule of client.schedule.list()) {
      if (schedule.scheduleId.startsWith(prefix)) ids.push(schedule.scheduleId);
    }
    if (ids.length >= expected || Date.now() > deadline) return ids.sort();
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The result of a run a schedule started, once the run exists (backfilled runs start one after the other).
 */
async function resultOf<T>(client: Client, workflowId: string): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      return (await client.workflow.getHandle(workflowId).result()) as T;
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

describe('Schedules as code on the Temporal dev server', () => {
  let stack: TestStack;
  let ctx: SchedulesContext;
  const world = seedWorld(seededRandomFor(42, 'world'));
  const schedules: SchedulesConfig = {
    idPrefix: `t${randomUUID().slice(0, 8)}-`,
    timeZone: 'America/Sao_Paulo',
    // Attempts sync is another job's workflow: yearly here, so it never fires during the test.
    cron: { attemptsSync: '0 3 1 1 *', metrics: '0 * * * *', reports: '0 6 * * *' },
  };

  beforeAll(async () => {
    stack = await startTestStack({ jobs: { metricsBankAccountIds: world.bankAccountIds } });
    ctx = { client: stack.client, taskQueue: stack.taskQueue, schedules };
  });
  /** Schedules of their own for a test, so it starts where no completed run has covered any time yet. */
  const ownSchedules: SchedulesConfig[] = [schedules];
  async function freshSchedules(): Promise<SchedulesContext> {
    const own = { ...schedules, idPrefix: `t${randomUUID().slice(0, 8)}-` };
    ownSchedules.push(own);
    const fresh = { ...ctx, schedules: own };
    await applySchedules(fresh);
    return fresh;
  }

  afterAll(async () => {
    if (stack) {
      for (const declaration of ownSchedules.flatMap(scheduleDeclarations)) {
        await stack.client.schedule
          .getHandle(declaration.scheduleId)
          .delete()
          .catch(() => undefined);
      }
    }
    await stack?.stop();
  });

  it('declares every job with a workflow type the worker registers', () => {
    const declarations = scheduleDeclarations(schedules);
    expect(declarations.map((declaration) => declaration.job)).toEqual(jobs);
    for (const declaration of declarations) {
      expect(typeof (workflows as Record<string, unknown>)[declaration.workflowType]).toBe('function');
    }
    expect(declarations.find((d) => d.job === 'attempts-sync')?.workflowType).toBe('syncRecurrenceAttempts');
  });

  it('`apply` twice leaves exactly one schedule per job, the second time changing nothing', async () => {
    const first = await applySchedules(ctx);
    expect(first.map((applied) => [applied.job, applied.result])).toEqual(
      jobs.map((job) => [job, 'created']),
    );
    const second = await applySchedules(ctx);
    expect(second.map((applied) => applied.result)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'unchanged',
    ]);

    const ids = await schedulesWithPrefix(stack.client, schedules.idPrefix, jobs.length);
    expect(ids).toEqual(jobs.map((job) => `${schedules.idPrefix}${job}`).sort());

    const views = await listSchedules(ctx);
    expect(views.map((view) => [view.job, view.exists, view.upToDate, view.paused])).toEqual(
      jobs.map((job) => [job, true, true, false]),
    );
    const described = await stack.client.schedule.getHandle(`${schedules.idPrefix}refund-report`).describe();
    expect(described.policies.overlap).toBe('SKIP');
    expect(described.policies.catchupWindow).toBe(dayMs);
    expect(described.spec.timezone).toBe('America/Sao_Paulo');
    expect(described.spec.calendars?.[0]).toMatchObject({
      hour: [{ start: 6, end: 6, step: 1 }],
      minute: [{ start: 0, end: 0, step: 1 }],
    });
    expect(described.action).toMatchObject({
      workflowType: 'refundReport',
      taskQueue: stack.taskQueue,
      args: [],
      memo: { bankflowJob: 'refund-report' },
    });
    expect(described.info.nextActionTimes[0]?.getUTCHours()).toBe(reportHourUtc);
    const attempts = await describeSchedule(ctx, { id: 'attempts-sync' });
    expect(attempts).toMatchObject({
      workflowType: 'syncRecurrenceAttempts',
      exists: true,
      cron: '0 3 1 1 *',
    });
    expect(attempts.nextRuns[0]).toMatch(/-01-01T06:00:00.000Z$/);
  });

  it('`apply` updates the schedules whose declaration changed and keeps an operator’s pause', async () => {
    await applySchedules(ctx);
    await pauseSchedule(ctx, { id: 'transfer-report', note: 'month-end freeze' });
    const changed = {
      ...ctx,
      schedules: { ...schedules, cron: { ...schedules.cron, reports: '30 7 * * *' } },
    };

    const applied = await applySchedules(changed);
    expect(applied.map((a) => [a.job, a.result])).toEqual([
      ['attempts-sync', 'unchanged'],
      ['refund-report', 'updated'],
      ['transfer-report', 'updated'],
      ['metrics-snapshot', 'unchanged'],
    ]);
    const described = await stack.client.schedule
      .getHandle(`${schedules.idPrefix}transfer-report`)
      .describe();
    expect(described.spec.calendars?.[0]).toMatchObject({
      hour: [{ start: 7, end: 7, step: 1 }],
      minute: [{ start: 30, end: 30, step: 1 }],
    });
    expect(described.state).toMatchObject({ paused: true, note: 'month-end freeze' });
    expect((await describeSchedule(ctx, { id: 'refund-report' })).upToDate).toBe(false);
    expect((await applySchedules(changed)).every((a) => a.result === 'unchanged')).toBe(true);

    expect((await applySchedules(ctx)).filter((a) => a.result === 'updated')).toHaveLength(2);
    await unpauseSchedule(ctx, { id: 'transfer-report' });
    expect(await schedulesWithPrefix(stack.client, schedules.idPrefix, jobs.length)).toHaveLength(
      jobs.length,
    );
  });

  it('the first triggered run covers the time since the schedule’s previous time and writes its report', async () => {
    await applySchedules(ctx);
    const triggered = await triggerSchedule(ctx, { id: 'refund-report' });
    expect(triggered.scheduleId).toBe(`${schedules.idPrefix}refund-report`);
    expect(triggered.workflowId.startsWith(`${triggered.scheduleId}-`)).toBe(true);

    const summary = await resultOf<ReportSummary>(stack.client, triggered.workflowId);
    const scheduledAt = new Date(Math.floor(Date.parse(triggered.scheduledAt) / 1000) * 1000);
    const window: Window = {
      from: previousReportTime(scheduledAt).toISOString(),
      to: scheduledAt.toISOString(),
    };
    expect(summary.window).toEqual(window);
    expect(summary.totals).toEqual(expectedTotals(stack.sandbox.state.bankData.refunds, window));
    expect(existsSync(summary.files.json)).toBe(true);
    expect(existsSync(summary.files.csv)).toBe(true);

    const run = await stack.client.workflow.getHandle(triggered.workflowId).describe();
    expect(run.searchAttributes.BankflowKind).toEqual(['refund-report']);
    expect(run.searchAttributes.BankflowStatus).toEqual(['completed']);
    expect(run.searchAttributes.TemporalScheduledById).toEqual([triggered.scheduleId]);
    expect(run.memo).toMatchObject({ bankflowJob: 'refund-report' });
  });

  it('backfill runs the job once per past scheduled time, each over the day before it', async () => {
    await applySchedules(ctx);
    const today = previousReportTime(new Date());
    const from = new Date(today.getTime() - 3 * dayMs - hourMs);
    const to = new Date(today.getTime() - dayMs + hourMs);

    const backfill = await backfillSchedule(ctx, {
      id: `${schedules.idPrefix}transfer-report`,
      from: from.toISOString(),
      to: to.toISOString(),
    });
    const times = [3, 2, 1].map((days) => new Date(today.getTime() - days * dayMs));
    expect(backfill.runs).toEqual(
      times.map((at) => ({
        scheduledAt: at.toISOString(),
        workflowId: `${schedules.idPrefix}transfer-report-${at.toISOString().replace('.000Z', 'Z')}`,
      })),
    );

    for (const [index, run] of backfill.runs.entries()) {
      const summary = await resultOf<ReportSummary>(stack.client, run.workflowId);
      const at = times[index] as Date;
      const window = { from: new Date(at.getTime() - dayMs).toISOString(), to: at.toISOString() };
      expect(summary.window).toEqual(window);
      expect(summary.totals).toEqual(expectedTotals(stack.sandbox.state.bankData.transfers, window));
      expect(existsSync(summary.files.csv)).toBe(true);
    }
  });

  it('pause and unpause show in describe, and a trigger still runs a paused job', async () => {
    await applySchedules(ctx);
    const paused = await pauseSchedule(ctx, { id: 'metrics-snapshot', note: 'bank maintenance window' });
    expect(paused).toMatchObject({ paused: true, note: 'bank maintenance window' });
    const described = await stack.client.schedule
      .getHandle(`${schedules.idPrefix}metrics-snapshot`)
      .describe();
    expect(described.state).toMatchObject({ paused: true, note: 'bank maintenance window' });

    const triggered = await triggerSchedule(ctx, { id: 'metrics-snapshot' });
    const result = await resultOf<MetricsSnapshotResult>(stack.client, triggered.workflowId);
    expect(result.status).toBe('stored');
    expect(result.accounts.map((account) => account.bankAccountId)).toEqual(world.bankAccountIds);
    // An hourly schedule: the window is the hour since the last full hour.
    expect(new Date(result.window.from).getUTCMinutes()).toBe(0);
    expect(Date.parse(result.window.to) - Date.parse(result.window.from)).toBeLessThanOrEqual(hourMs);

    const unpaused = await unpauseSchedule(ctx, { id: 'metrics-snapshot' });
    expect(unpaused.paused).toBe(false);
    expect((await stack.client.schedule.getHandle(unpaused.scheduleId).describe()).state.paused).toBe(false);
  });

  it('refuses unknown schedules and future backfills before calling Temporal', async () => {
    await expect(triggerSchedule(ctx, { id: 'nightly' })).rejects.toThrow(InvalidInputError);
    await expect(triggerSchedule(ctx, { id: 'nightly' })).rejects.toThrow(
      /^id: no declared schedule "nightly"; declared: attempts-sync \(t/,
    );
    const future = new Date(Date.now() + dayMs).toISOString();
    await expect(
      backfillSchedule(ctx, { id: 'refund-report', from: new Date().toISOString(), to: future }),
    ).rejects.toThrow(/^to: must not be in the future/);
    await expect(
      backfillSchedule(ctx, { id: 'refund-report', from: 'yesterday', to: future }),
    ).rejects.toThrow(/^from: /);
    const missing = { ...ctx, schedules: { ...schedules, idPrefix: `missing-${randomUUID()}-` } };
    await expect(triggerSchedule(missing, { id: 'refund-report' })).rejects.toThrow(
      /does not exist yet; run `bankflow schedules apply`/,
    );
  });

  it('finds where a scheduled window starts, and says why when it cannot', async () => {
    const { previousScheduledTime } = createScheduleActivities(stack.client);
    await applySchedules(ctx);
    const scheduleId = `${schedules.idPrefix}refund-report`;
    expect(await previousScheduledTime(scheduleId, '2026-03-02T09:00:00.000Z')).toBe(
      '2026-03-01T09:00:00.000Z',
    );
    expect(await previousScheduledTime(scheduleId, '2026-03-02T08:59:59.000Z')).toBe(
      '2026-03-01T09:00:00.000Z',
    );
    expect(
      await previousScheduledTime(`${schedules.idPrefix}metrics-snapshot`, '2026-03-02T09:20:00.000Z'),
    ).toBe('2026-03-02T09:00:00.000Z');

    const gone = await previousScheduledTime(
      `${schedules.idPrefix}nothing`,
      '2026-03-02T09:00:00.000Z',
    ).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(ApplicationFailure);
    expect(gone).toMatchObject({ type: 'ScheduleNotFound', nonRetryable: true });

    const leapDay = `${schedules.idPrefix}leap-day`;
    await stack.client.schedule.create({
      scheduleId: leapDay,
      spec: { cronExpressions: ['0 0 29 2 *'] },
      action: { type: 'startWorkflow', workflowType: 'refundReport', taskQueue: stack.taskQueue, args: [] },
      state: { paused: true },
    });
    try {
      const none = await previousScheduledTime(leapDay, '2026-03-02T09:00:00.000Z').catch(
        (error: unknown) => error,
      );
      expect(none).toMatchObject({ type: 'NoPreviousScheduledTime', nonRetryable: true });
      expect((none as Error).message).toMatch(/run the job with an explicit \{from, to\}$/);
    } finally {
      await stack.client.schedule.getHandle(leapDay).delete();
    }
  });

  /** The daily report time `days` before the latest one. */
  const reportDay = (days: number) => new Date(previousReportTime(new Date()).getTime() - days * dayMs);
  const iso = (at: Date) => at.toISOString();

  /** Where `schedules describe` says the job's covered time ends (its latest completed run's answer). */
  async function coveredUntil(on: SchedulesContext, job: string): Promise<string | null> {
    return (await describeSchedule(on, { id: job })).coveredUntil;
  }

  /** Runs a daily report for one past scheduled time through the schedule (a backfill of that time alone). */
  async function runAt(on: SchedulesContext, job: string, at: Date): Promise<string> {
    const backfill = await backfillSchedule(on, {
      id: job,
      from: iso(new Date(at.getTime() - hourMs)),
      to: iso(new Date(at.getTime() + hourMs)),
    });
    expect(backfill.runs.map((run) => run.scheduledAt)).toEqual([iso(at)]);
    return (backfill.runs[0] as { workflowId: string }).workflowId;
  }

  it('a run covers the time since the last completed window, so runs that never happened leave no gap', async () => {
    const own = await freshSchedules();
    const refunds = stack.sandbox.state.bankData.refunds;
    const first = await resultOf<ReportSummary>(
      stack.client,
      await runAt(own, 'refund-report', reportDay(5)),
    );
    expect(first.window).toEqual({ from: iso(reportDay(6)), to: iso(reportDay(5)) });

    // The runs of days 4, 3 and 2 never started (skipped, or missed past the catch-up window): day 1's covers
    // them.
    const next = await resultOf<ReportSummary>(stack.client, await runAt(own, 'refund-report', reportDay(1)));
    const window = { from: iso(reportDay(5)), to: iso(reportDay(1)) };
    expect(next.window).toEqual(window);
    expect(next.totals).toEqual(expectedTotals(refunds, window));
    const gap = expectedIds(refunds, { from: iso(reportDay(5)), to: iso(reportDay(2)) });
    expect(gap.length).toBeGreaterThan(0);
    const reported = JSON.parse(readFileSync(next.files.json, 'utf8')).refunds.map(
      (r: { id: string }) => r.id,
    );
    expect(reported).toEqual(expect.arrayContaining(gap));
    expect(await coveredUntil(own, 'refund-report')).toBe(iso(reportDay(1)));

    // A time already covered runs again over its scheduled interval and moves nothing.
    const again = await resultOf<ReportSummary>(
      stack.client,
      await runAt(own, 'refund-report', reportDay(3)),
    );
    expect(again.window).toEqual({ from: iso(reportDay(4)), to: iso(reportDay(3)) });
    expect(await coveredUntil(own, 'refund-report')).toBe(iso(reportDay(1)));
  });

  it('a failed run moves nothing: the next run covers its time as well', async () => {
    const own = await freshSchedules();
    const transfers = stack.sandbox.state.bankData.transfers;
    await resultOf<ReportSummary>(stack.client, await runAt(own, 'transfer-report', reportDay(9)));

    const template = transfers[0] as (typeof transfers)[number];
    const foreign = {
      ...template,
      id: randomUUID(),
      amount: { ...template.amount, currency: 'USD' },
      timestamp: iso(new Date(reportDay(9).getTime() + hourMs)),
    };
    transfers.push(foreign);
    try {
      const failed = await resultOf(stack.client, await runAt(own, 'transfer-report', reportDay(8))).catch(
        (error: unknown) => error,
      );
      expect(failed).toBeInstanceOf(WorkflowFailedError);
      expect((failed as WorkflowFailedError).cause?.cause).toMatchObject({ type: 'ReportCurrencyMismatch' });
    } finally {
      transfers.splice(transfers.indexOf(foreign), 1);
    }
    expect(await coveredUntil(own, 'transfer-report')).toBe(iso(reportDay(9)));

    const next = await resultOf<ReportSummary>(
      stack.client,
      await runAt(own, 'transfer-report', reportDay(7)),
    );
    const window = { from: iso(reportDay(9)), to: iso(reportDay(7)) };
    expect(next.window).toEqual(window);
    expect(next.totals).toEqual(expectedTotals(transfers, window));
    expect(await coveredUntil(own, 'transfer-report')).toBe(iso(reportDay(7)));
  });

  it('a run triggered while another runs is queued behind it, then covers the time after it', async () => {
    const own = await freshSchedules();
    // The bank's refund list fails a few times, so the first run lasts several seconds.
    stack.sandbox.faults.configure({
      ...stack.sandbox.faults.current(),
      fail_next: [{ method: 'GET', path_prefix: '/banking/cashin/refunds', count: 3, status: 503 }],
    });
    const first = await triggerSchedule(own, { id: 'refund-report' });
    // Scheduled times are whole seconds: the second run gets a later one.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const queued = triggerSchedule(own, { id: 'refund-report' });
    const one = await resultOf<ReportSummary>(stack.client, first.workflowId);
    const second = await queued;
    const secondRun = await stack.client.workflow.getHandle(second.workflowId).describe();
    expect(secondRun.startTime.getTime()).toBeGreaterThanOrEqual(
      (await stack.client.workflow.getHandle(first.workflowId).describe()).closeTime?.getTime() ?? NaN,
    );
    const two = await resultOf<ReportSummary>(stack.client, second.workflowId);
    const wholeSeconds = (at: string) => iso(new Date(Math.floor(Date.parse(at) / 1000) * 1000));
    expect(one.window).toEqual({
      from: iso(previousReportTime(new Date(first.scheduledAt))),
      to: wholeSeconds(first.scheduledAt),
    });
    expect(two.window).toEqual({ from: one.window.to, to: wholeSeconds(second.scheduledAt) });
    expect(two.coveredUntil).toBe(two.window.to);
    await recordHistory(stack.client, second.workflowId, 'refund-report-scheduled');
  });

  it(`catches up a long lag in windows of at most ${maxScheduledTimesPerWindow} scheduled times`, async () => {
    const own = await freshSchedules();
    const hour = Math.floor(Date.now() / hourMs) * hourMs;
    const last = new Date(hour - 30 * hourMs);
    const backfill = await backfillSchedule(own, {
      id: 'metrics-snapshot',
      from: iso(new Date(last.getTime() - hourMs / 2)),
      to: iso(new Date(last.getTime() + hourMs / 2)),
    });
    const firstRun = (backfill.runs[0] as { workflowId: string }).workflowId;
    const first = await resultOf<MetricsSnapshotResult>(stack.client, firstRun);
    expect(first.window).toEqual({ from: iso(new Date(last.getTime() - hourMs)), to: iso(last) });

    const triggered = await triggerSchedule(own, { id: 'metrics-snapshot' });
    const result = await resultOf<MetricsSnapshotResult>(stack.client, triggered.workflowId);
    const caughtUp = iso(new Date(last.getTime() + maxScheduledTimesPerWindow * hourMs));
    const scheduledAt = iso(new Date(Math.floor(Date.parse(triggered.scheduledAt) / 1000) * 1000));
    expect(result.window).toEqual({ from: caughtUp, to: scheduledAt });
    const earlier = windowFileBase('metrics-snapshot', { from: iso(last), to: caughtUp });
    expect(readdirSync(stack.jobs.reportsDir).filter((file) => file.startsWith(`${earlier}_`))).toHaveLength(
      1,
    );
    expect(result.coveredUntil).toBe(scheduledAt);
    expect(await coveredUntil(own, 'metrics-snapshot')).toBe(scheduledAt);
  });
});

import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { WorkflowNotFoundError } from '@temporalio/client';
import { loadConfig } from '../../src/config.js';
import { applySchedules } from '../../src/starter/index.js';
import type { ReportSummary } from '../../src/contract/jobs.js';
import { cliEnvFor } from '../helpers/cli-env.js';
import { cleanExit, freePort, runCli, startCli, stopCli, type StoppedCli } from '../helpers/cli.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const jobs = ['attempts-sync', 'refund-report', 'transfer-report', 'metrics-snapshot'];
const dayMs = 86_400_000;

describe('bankflow schedules', () => {
  const reportsDir = tempDirs('bankflow-dev-reports-');
  let stack: TestStack;
  let env: Record<string, string>;
  const prefixes: string[] = [];
  const newPrefix = () => {
    const prefix = `cli${randomUUID().slice(0, 8)}-`;
    prefixes.push(prefix);
    return prefix;
  };

  beforeAll(async () => {
    stack = await startTestStack();
    // Attempts sync belongs to another job's workflow: yearly here, so it never fires during the test.
    env = { ...cliEnvFor(stack), SCHEDULE_ID_PREFIX: newPrefix(), SCHEDULE_ATTEMPTS_SYNC_CRON: '0 3 1 1 *' };
    // What the commands below act on, applied in-process from the same environment the CLI reads.
    const { schedules } = loadConfig(env);
    await applySchedules({ client: stack.client, taskQueue: stack.taskQueue, schedules });
  });
  afterAll(async () => {
    if (stack) {
      for (const prefix of prefixes) {
        for (const job of jobs) {
          await stack.client.schedule
            .getHandle(`${prefix}${job}`)
            .delete()
            .catch(() => undefined);
        }
      }
    }
    await stack?.stop();
  });

  const json = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await runCli(['schedules', ...args], { ...env, ...extra });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout);
  };

  it('`apply` creates one schedule per job, a second `apply` changes nothing, a new cadence updates', async () => {
    const own = { SCHEDULE_ID_PREFIX: newPrefix() };
    const first = await json(['apply'], own);
    expect(first.map((s: { job: string; result: string }) => [s.job, s.result])).toEqual(
      jobs.map((job) => [job, 'created']),
    );
    expect(first[1]).toMatchObject({
      scheduleId: `${own.SCHEDULE_ID_PREFIX}refund-report`,
      workflowType: 'refundReport',
      cron: '0 6 * * *',
      timeZone: 'America/Sao_Paulo',
    });
    const second = await json(['apply'], own);
    expect(second.map((s: { result: string }) => s.result)).toEqual(jobs.map(() => 'unchanged'));

    const changed = await json(['apply'], { ...own, SCHEDULE_METRICS_CRON: '*/30 * * * *' });
    expect(changed.map((s: { result: string }) => s.result)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
      'updated',
    ]);
  });

  it('`list` shows every declared schedule as JSON, or as a table', async () => {
    const views = await json(['list']);
    expect(
      views.map((v: { job: string; exists: boolean; upToDate: boolean }) => [v.job, v.exists, v.upToDate]),
    ).toEqual(jobs.map((job) => [job, true, true]));

    const table = await runCli(['schedules', 'list', '--table'], env);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^JOB +SCHEDULE ID +WORKFLOW +CRON +STATE +NEXT RUN +NOTE$/);
    expect(lines.slice(1)).toHaveLength(jobs.length);
    expect(lines[2]).toMatch(
      /^refund-report +cli\w+-refund-report +refundReport +0 6 \* \* \* \(America\/Sao_Paulo\) +active +\d{4}-/,
    );
  });

  it('`trigger` runs a report now and prints the run; the report lands in REPORTS_DIR', async () => {
    const triggered = await json(['trigger', 'transfer-report']);
    expect(triggered.workflowId).toMatch(new RegExp(`^${env.SCHEDULE_ID_PREFIX}transfer-report-\\d{4}-`));
    const summary: ReportSummary = await stack.client.workflow.getHandle(triggered.workflowId).result();
    expect(summary.job).toBe('transfer-report');
    expect(summary.window.to).toBe(
      new Date(Math.floor(Date.parse(triggered.scheduledAt) / 1000) * 1000).toISOString(),
    );
    expect(path.dirname(summary.files.json)).toBe(stack.jobs.reportsDir);
    expect(existsSync(summary.files.json)).toBe(true);
  });

  it('`backfill` queues one run per past scheduled time', async () => {
    const to = new Date(Date.now() - dayMs);
    const from = new Date(to.getTime() - 2 * dayMs);
    const backfill = await json([
      'backfill',
      'refund-report',
      '--from',
      from.toISOString(),
      '--to',
      to.toISOString(),
    ]);
    expect(backfill.runs).toHaveLength(2);
    for (const run of backfill.runs) {
      expect(new Date(run.scheduledAt).getUTCHours()).toBe(9);
      let summary: ReportSummary | undefined;
      const deadline = Date.now() + 60_000;
      while (!summary) {
        try {
          summary = await stack.client.workflow.getHandle(run.workflowId).result();
        } catch (error) {
          if (!(error instanceof WorkflowNotFoundError) || Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
      expect(summary.window.to).toBe(run.scheduledAt);
    }
  });

  it('`pause --note` and `unpause` change the schedule and print it', async () => {
    const paused = await json(['pause', 'metrics-snapshot', '--note', 'bank maintenance']);
    expect(paused).toMatchObject({ job: 'metrics-snapshot', paused: true, note: 'bank maintenance' });
    const table = await runCli(['schedules', 'list', '--table'], env);
    expect(table.stdout).toMatch(/metrics-snapshot .* paused .* bank maintenance/);
    const unpaused = await json(['unpause', `${env.SCHEDULE_ID_PREFIX}metrics-snapshot`]);
    expect(unpaused).toMatchObject({ paused: false, note: 'unpaused with bankflow schedules unpause' });
  });

  it('names what is wrong in the command line: an unknown schedule, a bad or missing option', async () => {
    const unknown = await runCli(['schedules', 'trigger', 'nightly'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: id: no declared schedule "nightly"; declared: attempts-sync /);

    const badFrom = await runCli(
      ['schedules', 'backfill', 'refund-report', '--from', 'yesterday', '--to', new Date().toISOString()],
      env,
    );
    expect(badFrom.code).toBe(1);
    expect(badFrom.stderr).toMatch(/^error: --from: /);

    const missingTo = await runCli(
      ['schedules', 'backfill', 'refund-report', '--from', new Date().toISOString()],
      env,
    );
    expect(missingTo.code).toBe(1);
    expect(missingTo.stderr).toMatch(/required option '--to <date-time>' not specified/);
  });

  it('names the variable when a cadence or time zone is wrong', async () => {
    const badZone = await runCli(['schedules', 'apply'], { ...env, SCHEDULE_TIME_ZONE: 'Mars/Olympus' });
    expect(badZone.code).toBe(2);
    expect(badZone.stderr).toMatch(/SCHEDULE_TIME_ZONE: must be an IANA time zone/);

    const badCron = await runCli(['schedules', 'apply'], { ...env, SCHEDULE_REPORTS_CRON: 'daily' });
    expect(badCron.code).toBe(2);
    expect(badCron.stderr).toMatch(/SCHEDULE_REPORTS_CRON: must be a cron expression/);
  });

  it('`dev` applies the schedules once its worker is up', async () => {
    const prefix = newPrefix();
    const dev = startCli(['dev'], {
      ...env,
      SCHEDULE_ID_PREFIX: prefix,
      TEMPORAL_TASK_QUEUE: `cli-dev-schedules-${randomUUID()}`,
      WEBHOOK_PORT: String(await freePort()),
      CODEC_PORT: String(await freePort()),
      API_PORT: String(await freePort()),
      REPORTS_DIR: reportsDir(),
    });
    let exit: StoppedCli | undefined;
    try {
      await dev.waitFor(/Press Ctrl-C to stop/, 90_000);
      expect(dev.output()).toContain(`Schedules`);
      expect(dev.output()).toContain(`${prefix}refund-report`);
      for (const job of jobs) {
        const described = await stack.client.schedule.getHandle(`${prefix}${job}`).describe();
        expect(described.action.memo).toMatchObject({ bankflowJob: job });
      }
    } finally {
      exit = await stopCli(dev, 'SIGTERM');
    }
    expect(exit).toEqual(cleanExit);
  }, 120_000);
});

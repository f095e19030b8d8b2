import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection, Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { outputOf, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/temp-dirs.js';
import { testEnvKeys } from '../setup/shared.js';

const reproDir = path.resolve('repro/query-nondeterminism');
const savedHistory = path.join(reproDir, 'history.json');

/** repro/query-nondeterminism/run.ts as its README runs it, against the test run's dev server. */
async function runRepro(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(reproDir, 'run.ts'), ...args], {
    env: { ...process.env, TEMPORAL_ADDRESS: process.env[testEnvKeys.address] ?? '' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end();
  const { code, stdout, stderr } = await outputOf(child);
  const start = stdout.startsWith('{') ? 0 : stdout.indexOf('\n{') + 1;
  if (start === 0 && !stdout.startsWith('{'))
    throw new Error(`run.ts printed no report (exit ${code}): ${stderr}`);
  return { code, report: JSON.parse(stdout.slice(start)) as Record<string, unknown> };
}

const nondeterminism = expect.stringContaining('[TMPRL1100] Nondeterminism error');
const nondeterministicTask = {
  cause: 'WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR',
  message: nondeterminism,
};

const supportReset = (args: string[]) =>
  runCli(['support', 'reset', ...args], {
    TEMPORAL_ADDRESS: process.env[testEnvKeys.address] ?? '',
    TEMPORAL_NAMESPACE: process.env[testEnvKeys.namespace] ?? 'default',
  });

/**
 * docs/reliability.md, "Reads never query a running workflow": a query reaching a worker new to a workflow
 * before the workflow task that takes a fired timer and an update makes that worker record commands a replay
 * orders otherwise. These tests hold what the SDK does with the reproduction now: when an SDK upgrade fixes
 * it, the first two fail, and docs/reliability.md's advice to support staff can relax.
 */
describe('a query reaching a new worker before a workflow task with a fired timer and an update', () => {
  const tempDir = tempDirs('bankflow-query-repro-');
  /** The workflows of the runs below: the one that failed, and a control run's that did not. */
  const runs: { failed?: string; clean?: string } = {};

  it('fails the next workflow task with a nondeterminism error, on versioned workers as bankflow runs', async () => {
    const out = path.join(tempDir(), 'history.json');
    const { code, report } = await runRepro(['--versioned', '--out', out]);
    expect(report).toMatchObject({
      // The sequence really happened: the query came back before the task with both events started.
      query: { answered: true, beforeTheTask: true },
      recordedOrder: ['afterTimer', 'afterNudge'],
      // The task that replays the worker's recorded commands fails, as does each retry until the run ends.
      taskFailures: expect.arrayContaining([nondeterministicTask]),
      replayError: expect.stringMatching(/^DeterminismViolationError: .*\[TMPRL1100\] Nondeterminism error/),
      completed: false,
    });
    expect((report.taskFailures as unknown[])[0]).toEqual(nondeterministicTask);
    expect(code).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8')).events.length).toBeGreaterThan(10);
    runs.failed = String(report.workflowId);
  });

  it('throws the nondeterminism error replaying the saved history with Worker.runReplayHistory', async () => {
    const { code, report } = await runRepro(['--replay', savedHistory]);
    expect(report).toEqual({ replayed: savedHistory, replayError: nondeterminism });
    expect(code).toBe(1);
  });

  it.each([
    ['without the query', ['--query', 'none']],
    ['with a signal in place of the update', ['--signal']],
  ])('fails no workflow task and replays %s', async (_name, flags) => {
    const { code, report } = await runRepro([...flags, '--out', path.join(tempDir(), 'history.json')]);
    expect(report).toMatchObject({ taskFailures: [], completed: true });
    expect(report.replayError).toBeUndefined();
    expect(code).toBe(0);
    runs.clean = String(report.workflowId);
  });

  it('`bankflow support reset` resets the failed workflow to the task before the failure, and refuses others', async () => {
    const workflowId = runs.failed ?? '';
    const dryRun = await supportReset([workflowId, '--dry-run']);
    expect(dryRun.code).toBe(0);
    const planned = JSON.parse(dryRun.stdout) as Record<string, unknown>;
    expect(planned).toMatchObject({ workflowId, failure: nondeterminism, dryRun: true });
    expect(planned.newRunId).toBeUndefined();

    const done = await supportReset([workflowId, '--reason', 'replay order after a query']);
    expect(done.code).toBe(0);
    const reset = JSON.parse(done.stdout) as Record<string, unknown>;
    expect(reset).toMatchObject({
      ...planned,
      reason: 'replay order after a query',
      dryRun: false,
      newRunId: expect.any(String),
    });

    const connection = await Connection.connect({ address: process.env[testEnvKeys.address] ?? '' });
    try {
      const client = new Client({ connection, namespace: process.env[testEnvKeys.namespace] ?? 'default' });
      const events = (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      const { EventType, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;
      // The new run keeps the history up to the chosen task, fails that task as reset, and gets the update
      // again.
      const resetTask = events.find((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED);
      expect(Number(resetTask?.eventId)).toBe(reset.resetToEventId);
      expect(resetTask?.workflowTaskFailedEventAttributes).toMatchObject({
        cause: WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_RESET_WORKFLOW,
        baseRunId: reset.runId,
        newRunId: reset.newRunId,
      });
      expect(events.map((event) => event.eventType)).toContain(
        EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ADMITTED,
      );
      expect(events.map((event) => event.eventType)).not.toContain(
        EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      );
    } finally {
      await connection.close();
    }

    // The new run has no such failure, nor has the control run; an unknown workflow is named.
    for (const [id, why] of [
      [workflowId, 'has no workflow task failed with a nondeterminism error'],
      [runs.clean ?? '', 'has no workflow task failed with a nondeterminism error'],
      ['query-repro-unknown', 'does not exist'],
    ]) {
      const refused = await supportReset([id ?? '']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`error: workflow ${id} ${why}; nothing to reset`);
    }
  });
});

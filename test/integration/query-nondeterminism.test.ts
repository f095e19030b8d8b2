import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { outputOf } from '../helpers/cli.js';
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

/**
 * docs/reliability.md, "Reads never query a running workflow": a query reaching a worker new to a workflow before
 * the workflow task that takes a fired timer and an update makes that worker record commands a replay orders
 * otherwise. These tests hold what the SDK does with the reproduction now: when an SDK upgrade fixes it, the first
 * two fail, and docs/reliability.md's advice to support staff can relax.
 */
describe('a query reaching a new worker before a workflow task with a fired timer and an update', () => {
  const tempDir = tempDirs('bankflow-query-repro-');

  it('fails the next workflow task with a nondeterminism error, on versioned workers as bankflow runs', async () => {
    const out = path.join(tempDir(), 'history.json');
    const { code, report } = await runRepro(['--versioned', '--out', out]);
    expect(report).toMatchObject({
      // The sequence really happened: the query came back before the task with both events started.
      query: { answered: true, beforeTheTask: true },
      recordedOrder: ['afterTimer', 'afterNudge'],
      taskFailures: [
        { cause: 'WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR', message: nondeterminism },
      ],
      replayError: expect.stringMatching(/^DeterminismViolationError: .*\[TMPRL1100\] Nondeterminism error/),
      completed: false,
    });
    expect(code).toBe(1);
    expect(JSON.parse(readFileSync(out, 'utf8')).events.length).toBeGreaterThan(10);
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
  });
});

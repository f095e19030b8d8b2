import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ConnectionLike } from '@temporalio/client';
import proto from '@temporalio/proto';
import { findTemporalCli } from '../../src/temporal/cli-binary.js';
import type { Outcome } from './scenarios.js';

const cliEntry = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

interface Run {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

/** The built CLI, as an operator runs it. */
export const bankflow = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [cliEntry, ...args], env);

function expectRun(what: string, result: Run, code: number, says: string): string | undefined {
  if (result.code === code && result.output.includes(says)) return undefined;
  return `${what}: exit ${result.code}, expected ${code} saying "${says}": ${result.output.slice(-400)}`;
}

/**
 * docs/deployment.md's operator steps against the cluster, as written there: a namespace created with the
 * Temporal CLI, `bankflow setup` on it, `schedules apply` and `schedules list`.
 */
export async function operatorCommands(env: Record<string, string>, address: string): Promise<Outcome> {
  const namespace = `payments-${randomUUID().slice(0, 8)}`;
  const temporal = await findTemporalCli({ pathEnv: env.PATH });
  const onNamespace = { ...env, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace };
  const create = await run(
    temporal,
    ['operator', 'namespace', 'create', '--namespace', namespace, '--retention', '30d', '--address', address],
    env,
  );
  const problems = [expectRun('namespace create', create, 0, 'successfully registered')];
  // A namespace just registered reaches the frontend's cache a moment later.
  let setup = await bankflow(['setup'], onNamespace);
  for (let tries = 0; setup.code !== 0 && tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    setup = await bankflow(['setup'], onNamespace);
  }
  problems.push(expectRun('setup', setup, 0, '"registered"'));
  problems.push(expectRun('setup again', await bankflow(['setup'], onNamespace), 0, '"already registered"'));
  problems.push(
    expectRun('schedules apply', await bankflow(['schedules', 'apply'], onNamespace), 0, '"created"'),
  );
  problems.push(
    expectRun(
      'schedules list',
      await bankflow(['schedules', 'list', '--table'], onNamespace),
      0,
      'metrics-snapshot',
    ),
  );
  const failed = problems.filter(Boolean);
  return {
    ok: failed.length === 0,
    detail: failed.length
      ? failed.join('; ')
      : `namespace ${namespace} created, setup registered, schedules applied`,
  };
}

/**
 * A third `bankflow worker`, started as docs/deployment.md scales workers: the server lists three pollers.
 */
export async function scaleWorkers(
  env: Record<string, string>,
  connection: Pick<ConnectionLike, 'workflowService'>,
  namespace: string,
  taskQueue: string,
): Promise<Outcome> {
  const pollers = async () =>
    (
      await connection.workflowService.describeTaskQueue({
        namespace,
        taskQueue: { name: taskQueue },
        taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
      })
    ).pollers?.map((poller) => poller.identity ?? '') ?? [];
  const child = spawn(process.execPath, [cliEntry, 'worker'], { env, stdio: 'ignore' });
  try {
    const deadline = Date.now() + 60_000;
    while (!(await pollers()).some((identity) => identity.startsWith(`${child.pid}@`))) {
      if (Date.now() > deadline || child.exitCode !== null) {
        return { ok: false, detail: `the third worker (pid ${child.pid}) never polled` };
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const live = (await pollers()).length;
    return { ok: true, detail: `pid ${child.pid} among the queue's pollers (${live} listed)` };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * A second cluster on the same ports is refused before it starts anything, naming the port and the variable.
 */
export async function secondClusterRefused(env: Record<string, string>): Promise<Outcome> {
  const second = await bankflow(['cluster'], {
    ...env,
    BANKFLOW_DATA_DIR: path.join(env.BANKFLOW_DATA_DIR ?? '', 'second'),
  });
  const problem = expectRun('second cluster', second, 1, 'is in use');
  return {
    ok: problem === undefined,
    detail: problem ?? second.output.trim().split('\n').slice(0, 2).join(' / '),
  };
}

/**
 * A query reaching a worker new to a workflow before the workflow task that takes a fired timer and an
 * update: does the worker record its commands in the order a replay produces? README.md says what each step
 * does.
 *
 *   TEMPORAL_ADDRESS=127.0.0.1:7233 node --import tsx run.ts [--versioned] [--signal] [--shutdown]
 *     [--query <name>|none] [--query-when task-pending] [--out <file>] [--replay <file>]
 *
 * Without TEMPORAL_ADDRESS it starts a dev server (TEMPORAL_CLI names the binary, else the SDK downloads
 * one). Exits 1 when a workflow task failed or the saved history does not replay.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { historyFromJSON, historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import proto, { type temporal } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { nudge, nudgeUpdate, timerAndSignal } from './workflow.js';

const EventType = proto.temporal.api.enums.v1.EventType;
type History = temporal.api.history.v1.IHistory;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export interface ReproductionOptions {
  address: string;
  namespace?: string;
  /** Workers in a Worker Deployment, the workflow pinned to their version. */
  versioned?: boolean;
  /**
   * The query sent while no worker polls; the Temporal UI sends `__temporal_workflow_metadata`. `none` sends
   * none, the control run.
   */
  query?: string;
  /** How the workflow is nudged: an update (the default; it waits for a worker to accept it), or a signal. */
  message?: 'signal' | 'update';
  /**
   * How worker 1 goes away: SIGKILL of its process (the default; its sticky queue stays behind), or a
   * shutdown.
   */
  workerLoss?: 'shutdown' | 'kill';
  /**
   * When the query is sent: `quiescent` before the timer fires (no workflow task pending, so the server hands
   * the query straight to the task queue, where it waits for a poller), or `task-pending` after the timer and
   * the signal (the server then holds the query and sends it with the workflow task).
   */
  querySentAt?: 'quiescent' | 'task-pending';
  /** The workflow's timer; it must fire while no worker polls. */
  timerMs?: number;
}

export interface TaskFailure {
  cause: string;
  message: string;
}

export interface ReproductionResult {
  workflowId: string;
  /** The query's answer or the error it got, and whether it came back before the workflow task started. */
  query: { answered: boolean; detail: string; beforeTheTask: boolean } | undefined;
  /** The activity types of the commands the workflow task with both events recorded, in order. */
  recordedOrder: string[];
  /** The workflow tasks that failed, in history order. */
  taskFailures: TaskFailure[];
  /** The error `Worker.runReplayHistory` threw for the final history, if any. */
  replayError: string | undefined;
  completed: boolean;
  history: History;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const activities = {
  afterTimer: async () => 'timer',
  afterNudge: async () => 'nudge',
};

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const failuresOf = (events: HistoryEvent[]): TaskFailure[] =>
  events
    .filter((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED)
    .map((event) => ({
      cause: proto.temporal.api.enums.v1.WorkflowTaskFailedCause[
        event.workflowTaskFailedEventAttributes?.cause ?? 0
      ] as string,
      message: event.workflowTaskFailedEventAttributes?.failure?.message ?? '',
    }));

const firstAfter = (events: HistoryEvent[], type: temporal.api.enums.v1.EventType, after: number) =>
  events.findIndex((e, index) => index > after && e.eventType === type);

const timerFiredAt = (events: HistoryEvent[]) => firstAfter(events, EventType.EVENT_TYPE_TIMER_FIRED, -1);

/** The activity types scheduled by the first workflow task completed after the timer fired, in order. */
function orderAfterTimer(events: HistoryEvent[]): string[] {
  const fired = timerFiredAt(events);
  const completed = firstAfter(events, EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, fired);
  if (fired < 0 || completed < 0) return [];
  const next = firstAfter(events, EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED, completed);
  return events
    .slice(completed + 1, next < 0 ? undefined : next)
    .filter((event) => event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED)
    .map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? '');
}

/** When the first workflow task after the timer fired started, in ms since the epoch. */
function taskStartedAt(events: HistoryEvent[]): number {
  const time =
    events[firstAfter(events, EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED, timerFiredAt(events))]?.eventTime;
  return time ? Number(time.seconds ?? 0) * 1_000 + Math.floor((time.nanos ?? 0) / 1e6) : Infinity;
}

/** Makes `version` the deployment's current version once the server has seen its worker poll. */
async function makeCurrent(client: Client, namespace: string, deploymentName: string, buildId: string) {
  await waitFor('the worker version to register', async () => {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({ namespace, deploymentName, buildId });
      return true;
    } catch (error) {
      const code = (error as { code?: number }).code;
      if (code === 5 || code === 9) return undefined; // NOT_FOUND, FAILED_PRECONDITION: not registered yet
      throw error;
    }
  });
}

const bundle = () =>
  bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('./workflow.ts', import.meta.url)),
    logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
  });

/** The error replaying `history` throws, or undefined when it replays. */
async function replayError(workflowBundle: { code: string }, history: History): Promise<string | undefined> {
  try {
    await Worker.runReplayHistory({ workflowBundle, replayName: 'query-repro' }, history);
    return undefined;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** Replays a history file `run.ts` saved (or `temporal workflow show --output json` wrote). */
export async function replayFile(file: string): Promise<string | undefined> {
  return replayError(await bundle(), historyFromJSON(JSON.parse(readFileSync(file, 'utf8'))));
}

export async function runReproduction(options: ReproductionOptions): Promise<ReproductionResult> {
  const namespace = options.namespace ?? 'default';
  const timerMs = options.timerMs ?? 3_000;
  const taskQueue = `query-repro-${randomUUID()}`;
  const workflowId = `query-repro-${randomUUID()}`;
  const workflowBundle = await bundle();
  const connection = await Connection.connect({ address: options.address });
  const nativeConnection = await NativeConnection.connect({ address: options.address });
  const client = new Client({ connection, namespace });
  const deploymentName = `query-repro-${randomUUID()}`;
  const buildId = 'v1';
  const workerOptions = (withActivities: boolean): WorkerOptions => ({
    connection: nativeConnection,
    namespace,
    taskQueue,
    workflowBundle,
    ...(withActivities ? { activities } : {}),
    ...(options.versioned
      ? {
          workerDeploymentOptions: {
            version: { deploymentName, buildId },
            useWorkerVersioning: true,
            defaultVersioningBehavior: 'PINNED' as const,
          },
        }
      : {}),
  });
  /** Worker 1 in its own process, for `workerLoss: 'kill'`. */
  const processWorker = async () => {
    const bundlePath = path.join(mkdtempSync(path.join(tmpdir(), 'query-repro-')), 'bundle.js');
    writeFileSync(bundlePath, workflowBundle.code);
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('./worker.ts', import.meta.url))],
      {
        env: {
          ...process.env,
          REPRO_ADDRESS: options.address,
          REPRO_NAMESPACE: namespace,
          REPRO_TASK_QUEUE: taskQueue,
          REPRO_BUNDLE: bundlePath,
          ...(options.versioned ? { REPRO_DEPLOYMENT_NAME: deploymentName, REPRO_BUILD_ID: buildId } : {}),
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('worker running')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`worker process exited with ${code}`)));
    });
    return {
      stop: async () => {
        child.kill('SIGKILL');
        await exited;
      },
    };
  };
  const running = async (withActivities: boolean) => {
    const worker = await Worker.create(workerOptions(withActivities));
    const done = worker.run();
    return {
      stop: async () => {
        worker.shutdown();
        await done;
      },
    };
  };
  const events = async () => (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const has = async (type: temporal.api.enums.v1.EventType, count = 1) =>
    (await events()).filter((e) => e.eventType === type).length >= count ? true : undefined;

  try {
    // Worker 1 runs the workflow to its waits (a timer and a condition) and goes away.
    const first = options.workerLoss === 'shutdown' ? await running(false) : await processWorker();
    if (options.versioned) await makeCurrent(client, namespace, deploymentName, buildId);
    const handle = await client.workflow.start(timerAndSignal, { workflowId, taskQueue, args: [timerMs] });
    await waitFor('the first workflow task', () => has(EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED));
    await first.stop();

    const queryName = options.query ?? '__temporal_workflow_metadata';
    const sendQuery = async () =>
      queryName === 'none'
        ? undefined
        : handle.query(queryName).then(
            (answer) => ({ answered: true, detail: JSON.stringify(answer).slice(0, 200), at: Date.now() }),
            (error: Error) => ({ answered: false, detail: error.message, at: Date.now() }),
          );
    const querySentAt = options.querySentAt ?? 'quiescent';
    const early = querySentAt === 'quiescent' ? sendQuery() : undefined;

    // With no worker polling: the timer fires and the signal arrives, so one workflow task waits with both.
    await waitFor('the timer to fire', () => has(EventType.EVENT_TYPE_TIMER_FIRED));
    const update =
      options.message === 'signal'
        ? handle.signal(nudge)
        : handle.executeUpdate(nudgeUpdate).then(
            () => undefined,
            (error: Error) => error,
          );
    // An update is admitted without an event; it reaches the workflow with the next workflow task.
    if (options.message === 'signal') await update;
    else await sleep(200);

    // The query reaches the server before any worker polls again; then a new worker, holding nothing, starts.
    const query = early ?? sendQuery();
    await sleep(500);
    const second = await running(false);
    const queried = await query;
    await waitFor('the workflow task with both events', async () => {
      const all = await events();
      return orderAfterTimer(all).length === 2 || failuresOf(all).length > 0 ? true : undefined;
    });
    await second.stop();
    const updateError = await update;
    if (updateError) throw updateError;

    // A third worker, holding nothing, takes the activities' results: it replays the task worker 2 recorded.
    const third = await running(true);
    const ended = await waitFor('the workflow to end or a workflow task to fail', async () => {
      const all = await events();
      if (failuresOf(all).length > 0) return 'failed' as const;
      return all.some((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED)
        ? ('completed' as const)
        : undefined;
    });
    await third.stop();
    if (ended === 'failed') await handle.terminate('reproduction done');

    const history = await client.workflow.getHandle(workflowId).fetchHistory();
    const all = history.events ?? [];
    return {
      workflowId,
      query: queried && {
        answered: queried.answered,
        detail: queried.detail,
        beforeTheTask: queried.at < taskStartedAt(all),
      },
      recordedOrder: orderAfterTimer(all),
      taskFailures: failuresOf(all),
      replayError: await replayError(workflowBundle, history),
      completed: ended === 'completed',
      history,
    };
  } finally {
    await nativeConnection.close();
    await connection.close();
  }
}

export const historyJson = (history: History) => historyToJSON(history);

async function main() {
  const { values } = parseArgs({
    options: {
      versioned: { type: 'boolean', default: false },
      query: { type: 'string' },
      out: { type: 'string', default: 'history.json' },
      shutdown: { type: 'boolean', default: false },
      signal: { type: 'boolean', default: false },
      'query-when': { type: 'string', default: 'quiescent' },
      replay: { type: 'string' },
    },
  });
  if (values.replay) {
    const error = await replayFile(values.replay);
    process.stdout.write(`${JSON.stringify({ replayed: values.replay, replayError: error }, null, 2)}\n`);
    process.exitCode = error ? 1 : 0;
    return;
  }
  const env = process.env.TEMPORAL_ADDRESS
    ? undefined
    : await TestWorkflowEnvironment.createLocal(
        process.env.TEMPORAL_CLI
          ? { server: { executable: { type: 'existing-path', path: process.env.TEMPORAL_CLI } } }
          : {},
      );
  try {
    const result = await runReproduction({
      address: process.env.TEMPORAL_ADDRESS ?? env?.address ?? '',
      versioned: values.versioned,
      workerLoss: values.shutdown ? 'shutdown' : 'kill',
      message: values.signal ? 'signal' : 'update',
      querySentAt: values['query-when'] === 'task-pending' ? 'task-pending' : 'quiescent',
      ...(values.query ? { query: values.query } : {}),
    });
    writeFileSync(values.out, historyJson(result.history));
    const report = { ...result, history: undefined, historyFile: values.out };
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    process.exitCode = result.taskFailures.length > 0 || result.replayError ? 1 : 0;
  } finally {
    await env?.teardown();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

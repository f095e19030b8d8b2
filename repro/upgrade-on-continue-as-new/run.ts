/**
 * Does a PINNED run that continues as new with `initialVersioningBehavior: 'AUTO_UPGRADE'` start its next run
 * on the Worker Deployment's new current version, while a plain continue-as-new stays on the pinned one?
 * README.md says what each step does.
 *
 *   TEMPORAL_CLI=<temporal binary> node --import tsx repro/upgrade-on-continue-as-new/run.ts [--json]
 *
 * Starts its own dev server from TEMPORAL_CLI (default ~/.cache/bankflow/temporal-cli-1.9.1/temporal) and
 * stops it, and everything else it started, before it exits. Exits 0 once both chains were observed, whatever
 * they did.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import proto, { type temporal } from '@temporalio/proto';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Runtime,
  Worker,
  type WorkflowBundle,
} from '@temporalio/worker';
import type { ChainInput, RunRecord } from './chain.js';

const { EventType, VersioningBehavior, ContinueAsNewVersioningBehavior } = proto.temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const namespace = 'default';
const workflowType = 'upgradeChain';
const runsPerChain = 3;
/**
 * How long the old runs are watched, after B became current and before any signal, for a task the server
 * adds.
 */
const quietMs = 5_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} };

async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** Like waitFor, but a timeout is an observation (the run never got a task), not a failure of the script. */
const observe = <T>(probe: () => Promise<T | undefined>, timeoutMs: number) =>
  waitFor('', probe, timeoutMs).catch(() => undefined);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startDevServer(binary: string) {
  const port = await freePort();
  const uiPort = await freePort();
  const child = spawn(
    binary,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--headless',
      '--log-level',
      'error',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // An uncaught error must not leave the server behind; Ctrl-C reaches it through the terminal's process
  // group.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const address = `127.0.0.1:${port}`;
  try {
    await waitFor('the dev server', async () => {
      if (child.exitCode !== null) throw new Error(`the dev server exited: ${stderr.slice(-2_000)}`);
      try {
        const connection = await Connection.connect({ address, connectTimeout: 1_000 });
        try {
          await connection.workflowService.describeNamespace({ namespace });
          return true;
        } finally {
          await connection.close();
        }
      } catch {
        return undefined;
      }
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, stop };
}

const buildIds = { a: 'build-a', b: 'build-b' } as const;

function bundle(file: string): Promise<WorkflowBundle> {
  return bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL(file, import.meta.url)),
    logger: quiet,
  });
}

/** Makes `buildId` current once the server has seen its worker poll (until then it refuses). */
async function makeCurrent(client: Client, deploymentName: string, buildId: string) {
  await waitFor(`${buildId} to register`, async () => {
    try {
      await client.workflowService.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName,
        buildId,
        identity: 'upgrade-on-continue-as-new repro',
      });
      return true;
    } catch (error) {
      const code = (error as { code?: number }).code;
      if (code === 5 || code === 9) return undefined; // NOT_FOUND, FAILED_PRECONDITION: not registered yet
      throw error;
    }
  });
}

const enumName = (values: Record<number, string>, value: number | null | undefined, prefix: string) =>
  (values[value ?? 0] ?? String(value)).replace(prefix, '');

interface TaskRow {
  /** `targetWorkerDeploymentVersionChanged` of the WorkflowTaskStarted event. */
  targetChanged: boolean;
  /** The build id the WorkflowTaskCompleted event records, or how the task ended. */
  buildId: string;
  behavior: string;
}

interface RunReport {
  runId: string;
  /** What the run took over from the run it continued, per its WorkflowExecutionStarted event. */
  inheritedPinned: string;
  inheritedAutoUpgradeFrom: string;
  /** The target the previous run saw and did not move to, so this run is not told of it again. */
  declinedTarget: string;
  tasks: TaskRow[];
  /**
   * The `initialVersioningBehavior` the previous run continued as new with, as the server recorded it for
   * this run (the ContinuedAsNew event itself does not carry it).
   */
  startedWith: string;
  describe: { behavior: string; version: string; searchAttribute: string };
}

async function events(client: Client, workflowId: string, runId: string): Promise<HistoryEvent[]> {
  return (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
}

function tasksOf(history: HistoryEvent[]): TaskRow[] {
  const rows: TaskRow[] = [];
  for (const event of history) {
    if (event.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED) continue;
    const started = event.workflowTaskStartedEventAttributes;
    const end = history.find(
      (e) =>
        Number(
          e.workflowTaskCompletedEventAttributes?.startedEventId ??
            e.workflowTaskFailedEventAttributes?.startedEventId ??
            e.workflowTaskTimedOutEventAttributes?.startedEventId ??
            -1,
        ) === Number(event.eventId),
    );
    const completed = end?.workflowTaskCompletedEventAttributes;
    rows.push({
      targetChanged: started?.targetWorkerDeploymentVersionChanged ?? false,
      buildId: completed
        ? (completed.deploymentVersion?.buildId ?? '(none)')
        : end
          ? enumName(EventType, end.eventType, 'EVENT_TYPE_')
          : '(running)',
      behavior: completed
        ? enumName(VersioningBehavior, completed.versioningBehavior, 'VERSIONING_BEHAVIOR_')
        : '',
    });
  }
  return rows;
}

async function describeRun(
  client: Client,
  workflowId: string,
  runId: string,
): Promise<RunReport['describe']> {
  const { workflowExecutionInfo: info } = await client.workflowService.describeWorkflowExecution({
    namespace,
    execution: { workflowId, runId },
  });
  const versioning = info?.versioningInfo;
  const payload = info?.searchAttributes?.indexedFields?.TemporalWorkerDeploymentVersion;
  return {
    behavior: enumName(VersioningBehavior, versioning?.behavior, 'VERSIONING_BEHAVIOR_'),
    version: versioning?.deploymentVersion?.buildId ?? '',
    searchAttribute: payload?.data ? String(JSON.parse(Buffer.from(payload.data).toString())) : '',
  };
}

/** Every run of the chain, following ContinuedAsNew from the first. */
async function chainReport(client: Client, workflowId: string, firstRunId: string): Promise<RunReport[]> {
  const reports: RunReport[] = [];
  for (let runId: string | undefined = firstRunId; runId;) {
    const history = await events(client, workflowId, runId);
    const started = history[0]?.workflowExecutionStartedEventAttributes;
    const continued = history.find(
      (e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW,
    )?.workflowExecutionContinuedAsNewEventAttributes;
    reports.push({
      runId,
      inheritedPinned: started?.inheritedPinnedVersion?.buildId ?? '',
      inheritedAutoUpgradeFrom: started?.inheritedAutoUpgradeInfo?.sourceDeploymentVersion?.buildId ?? '',
      declinedTarget: started?.declinedTargetVersionUpgrade?.deploymentVersion?.buildId ?? '',
      startedWith: started?.inheritedAutoUpgradeInfo
        ? enumName(
            ContinueAsNewVersioningBehavior,
            started.inheritedAutoUpgradeInfo.continueAsNewInitialVersioningBehavior,
            'CONTINUE_AS_NEW_VERSIONING_BEHAVIOR_',
          )
        : '',
      tasks: tasksOf(history),
      describe: await describeRun(client, workflowId, runId),
    });
    runId = continued?.newExecutionRunId ?? undefined;
  }
  return reports;
}

const countOf = (history: HistoryEvent[], type: temporal.api.enums.v1.EventType) =>
  history.filter((e) => e.eventType === type).length;

interface Variant {
  name: 'upgrade' | 'control';
  workflowId: string;
  firstRunId: string;
  /** Workflow tasks the first run got between B becoming current and the first signal. */
  tasksWithoutSignal?: number;
  records?: RunRecord[];
  /** What stopped the chain before its last run, when it did not finish. */
  stalled?: string;
  runs?: RunReport[];
}

async function experiment(address: string) {
  const deploymentName = `upgrade-on-can-${randomUUID().slice(0, 8)}`;
  const taskQueue = `upgrade-on-can-${randomUUID().slice(0, 8)}`;
  const [bundleA, bundleB] = await Promise.all([bundle('./workflow-a.ts'), bundle('./workflow-b.ts')]);
  const connection = await Connection.connect({ address });
  const nativeConnection = await NativeConnection.connect({ address });
  const client = new Client({ connection, namespace });
  const { serverVersion } = await client.workflowService.getSystemInfo({});
  const running: Array<{ worker: Worker; done: Promise<void> }> = [];
  const startWorker = async (buildId: string, workflowBundle: WorkflowBundle) => {
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace,
      taskQueue,
      workflowBundle,
      workerDeploymentOptions: {
        useWorkerVersioning: true,
        version: { deploymentName, buildId },
        defaultVersioningBehavior: 'PINNED',
      },
    });
    running.push({ worker, done: worker.run() });
  };
  const variants: Variant[] = [];
  try {
    // Both chains start on A, pinned to it.
    await startWorker(buildIds.a, bundleA);
    await makeCurrent(client, deploymentName, buildIds.a);
    for (const name of ['upgrade', 'control'] as const) {
      const workflowId = `upgrade-on-can-${name}-${randomUUID().slice(0, 8)}`;
      const input: ChainInput = { upgrade: name === 'upgrade', runs: runsPerChain, records: [] };
      const handle = await client.workflow.start(workflowType, { workflowId, taskQueue, args: [input] });
      variants.push({ name, workflowId, firstRunId: handle.firstExecutionRunId });
    }
    for (const v of variants) {
      await waitFor(`${v.name}'s first workflow task`, async () =>
        countOf(
          await events(client, v.workflowId, v.firstRunId),
          EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED,
        ) > 0
          ? true
          : undefined,
      );
    }

    // B starts polling and becomes current while both first runs wait, pinned to A, for `next`.
    await startWorker(buildIds.b, bundleB);
    const scheduledBefore = new Map<string, number>();
    for (const v of variants) {
      scheduledBefore.set(
        v.workflowId,
        countOf(
          await events(client, v.workflowId, v.firstRunId),
          EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
        ),
      );
    }
    await makeCurrent(client, deploymentName, buildIds.b);
    await sleep(quietMs);
    for (const v of variants) {
      const scheduled = countOf(
        await events(client, v.workflowId, v.firstRunId),
        EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED,
      );
      v.tasksWithoutSignal = scheduled - (scheduledBefore.get(v.workflowId) ?? 0);
    }

    // `next` ends each run in turn; each new run must finish its first task before it gets the next signal.
    for (const v of variants) {
      const handle = client.workflow.getHandle(v.workflowId);
      for (let run = 1; run < runsPerChain && !v.stalled; run++) {
        await handle.signal('next');
        const taken = await observe(async () => {
          const runs = await chainReport(client, v.workflowId, v.firstRunId);
          const last = runs[runs.length - 1];
          return runs.length > run && last?.tasks.some((t) => t.behavior !== '') ? true : undefined;
        }, 20_000);
        if (!taken) v.stalled = `run ${run + 1} got no completed workflow task within 20 s`;
      }
      if (!v.stalled) {
        v.records = (await Promise.race([handle.result(), sleep(20_000).then(() => undefined)])) as
          RunRecord[] | undefined;
        if (!v.records) v.stalled = 'the chain did not complete within 20 s';
      }
      v.runs = await chainReport(client, v.workflowId, v.firstRunId);
      if (v.stalled) await handle.terminate('repro done').catch(() => undefined);
    }
    return { serverVersion, deploymentName, taskQueue, variants };
  } finally {
    for (const { worker } of running) worker.shutdown();
    await Promise.allSettled(running.map(({ done }) => done));
    await nativeConnection.close();
    await connection.close();
  }
}

type Row = Record<string, string>;

function table(rows: Row[]): string {
  const columns = Object.keys(rows[0] ?? {});
  const width = (column: string) => Math.max(column.length, ...rows.map((row) => (row[column] ?? '').length));
  const line = (cells: (column: string) => string) =>
    `| ${columns.map((column) => cells(column).padEnd(width(column))).join(' | ')} |`;
  return [
    line((column) => column),
    line((column) => '-'.repeat(width(column))),
    ...rows.map((row) => line((column) => row[column] ?? '')),
  ].join('\n');
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '' : value ? 'true' : 'false');

function rowsOf(variant: Variant): Row[] {
  return (variant.runs ?? []).map((run, index) => {
    const record = variant.records?.[index];
    const first = run.tasks[0];
    return {
      chain: variant.name,
      run: String(index + 1),
      'code ran': record?.build ?? '(no result)',
      'tasks: build/flag': run.tasks.map((t) => `${t.buildId}/${yesNo(t.targetChanged)}`).join(', '),
      'first task behavior': first?.behavior ?? '(no task)',
      'describe behavior/version': `${run.describe.behavior}/${run.describe.version}`,
      TemporalWorkerDeploymentVersion: run.describe.searchAttribute,
      'started with': run.startedWith,
      'inherited pinned': run.inheritedPinned,
      'auto-upgrade from': run.inheritedAutoUpgradeFrom,
      'declined target': run.declinedTarget,
      'flag at start': yesNo(record?.targetChangedAtStart),
      'flag at next': yesNo(record?.targetChangedAtNext),
    };
  });
}

async function main() {
  const { values } = parseArgs({ options: { json: { type: 'boolean', default: false } } });
  const binary =
    process.env.TEMPORAL_CLI ?? path.join(homedir(), '.cache', 'bankflow', 'temporal-cli-1.9.1', 'temporal');
  const cliVersion = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim();
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const server = await startDevServer(binary);
  try {
    const result = await experiment(server.address);
    if (values.json) {
      process.stdout.write(`${JSON.stringify({ cliVersion, ...result }, null, 2)}\n`);
      return;
    }
    const out = [
      `${cliVersion}; server reports ${result.serverVersion}; deployment ${result.deploymentName}`,
      '',
      table(result.variants.flatMap(rowsOf)),
      '',
      ...result.variants.map(
        (v) =>
          `${v.name}: ${v.tasksWithoutSignal} workflow task(s) in run 1 within ${quietMs / 1_000} s of build-b ` +
          `becoming current, before any signal${v.stalled ? `; stalled: ${v.stalled}` : ''}`,
      ),
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await server.stop();
  }
}

await main();

import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker } from '@temporalio/worker';
import { pino, type Logger } from 'pino';
import { developmentEncryptionKeys, loadConfig, type BankConfig } from '../src/config.js';
import { createLogger } from '../src/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../devkit/sandbox/app.js';
import { findTemporalCli } from '../src/temporal/cli-binary.js';
import { bankflowDataConverter } from '../src/temporal/data-converter.js';
import { parseEncryptionKeys } from '../src/temporal/encryption.js';
import { installTemporalRuntime } from '../src/temporal/runtime.js';
import { allSearchAttributeKeys } from '../src/contract/temporal.js';
import { promoteOwnVersion } from '../src/temporal/worker-deployment.js';
import { createBankflowWorker } from '../src/worker.js';
import { childPid, startBankflowProcess } from './processes.js';
import * as skeletonActivities from './skeleton/activities.js';

export const benchCredentials = { clientId: 'bench-client', clientSecret: 'bench-secret' };
export const benchWebhookSecret = 'bench-webhook-secret';
/**
 * From authorization to the bank's settlement, as a real bank takes a moment; the same in every build, so
 * runs before and after a change compare.
 */
export const settlementDelayMs = 500;
const namespace = 'default';

/**
 * A sandbox bank of a benchmark's own on a free port: the bench's seed and credentials, payments that settle
 * as in the bench stack's when `journey` is set, and what else the benchmark asks for.
 */
export const startBenchSandbox = (
  logger: Logger,
  options: Partial<SandboxOptions> & { journey?: boolean } = {},
): Promise<RunningSandbox> => {
  const { journey, ...rest } = options;
  return startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: 42,
    credentials: benchCredentials,
    logger,
    ...(journey
      ? {
          biometrics: { settlementDelayMs, consentWindowMs: 30 * 60_000 },
          webhookDelivery: { baseDelayMs: 50 },
        }
      : {}),
    ...rest,
  });
};

export interface BenchStack {
  address: string;
  namespace: string;
  /** The Temporal dev server's process, when it could be found, so its CPU time can be counted. */
  temporalPid: number | undefined;
  /** Bench output goes to the terminal; every component logs here, at LOG_LEVEL (info by default). */
  logger: Logger;
  logFile: string;
  /** Where temporary files go (logs, reports); removed by `stop` unless kept. */
  workDir: string;
  /** bankflow's client (payload encryption), as the merchant backend has it. */
  client: Client;
  sandbox: RunningSandbox;
  bank: BankConfig & { baseUrl: string };
  /** The in-process bankflow worker's task queue. */
  taskQueue: string;
  /** `bankflow webhooks`, the receiver the sandbox delivers to, as a process of its own. */
  receiverUrl: string;
  receiverPid: number;
  /** The engine's floor: a plain client and a worker running only bench/skeleton. */
  skeleton: { client: Client; taskQueue: string };
  /**
   * How many workflows a `bankflow worker` child keeps cached (its default, or
   * TEMPORAL_MAX_CACHED_WORKFLOWS).
   */
  workflowCacheSize: number;
  /** Environment of a `bankflow` child process reaching this stack on `taskQueue`. */
  processEnv(taskQueue: string): Record<string, string>;
  /** Node options of `bankflow` children, e.g. `--cpu-prof` when profiling. */
  workerNodeArgs: string[];
  stop(options?: { keepFiles?: boolean }): Promise<void>;
}

/** The worker settings an operator tunes; set in the bench's environment, they reach every bankflow child. */
const workerTuningKeys = ['TEMPORAL_MAX_CACHED_WORKFLOWS'] as const;

const workerTuning = (env: NodeJS.ProcessEnv): Record<string, string> =>
  Object.fromEntries(workerTuningKeys.flatMap((key) => (env[key] ? [[key, env[key]]] : [])));

/**
 * The embedded stack the benchmarks measure: a Temporal dev server of its own (the Temporal CLI bankflow
 * finds, started by @temporalio/testing on a free port with in-memory SQLite, as the tests run it: on this
 * disk the file-backed database `bankflow dev` uses timed out its own writes under load, which measures the
 * disk rather than bankflow), the sandbox bank with no latency and fast settlement, the webhook receiver
 * (`bankflow webhooks`) the sandbox delivers to, a bankflow worker, and the skeleton worker.
 */
export async function startBenchStack(
  options: { profile?: boolean; workerHeapMb?: number } = {},
): Promise<BenchStack> {
  // The benchmarks measure the development stack: the sandbox bank and the development keys.
  const config = loadConfig({
    BANKFLOW_ENV: 'development',
    ...process.env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
  });
  const workDir = mkdtempSync(path.join(tmpdir(), 'bankflow-bench-'));
  const logFile = path.join(workDir, 'bench.log');
  const logger = createLogger(config.logLevel, pino.destination({ dest: logFile, sync: false }));
  installTemporalRuntime(logger);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
  };

  try {
    const cliPath = await findTemporalCli({
      explicitPath: config.temporal.cliPath,
      pathEnv: config.temporal.searchPath,
    });
    const temporal = await TestWorkflowEnvironment.createLocal({
      server: {
        executable: { type: 'existing-path', path: cliPath },
        ip: '127.0.0.1',
        namespace,
        searchAttributes: allSearchAttributeKeys,
        // Under load it reports slow persistence writes as errors; the measurements tell that story already.
        log: { format: 'pretty', level: 'never' },
      },
    });
    stops.push(() => temporal.teardown());
    const server = { address: temporal.address, pid: childPid('temporal') };

    const sandbox = await startBenchSandbox(logger, { journey: true });
    stops.push(() => sandbox.stop());
    const bank = { ...benchCredentials, timeoutMs: 10_000, baseUrl: sandbox.url };
    // The development keys, which `bankflow worker` children use when TEMPORAL_ENCRYPTION_KEYS is unset.
    const encryptionKeys = parseEncryptionKeys(developmentEncryptionKeys);
    const dataConverter = bankflowDataConverter(encryptionKeys);

    const connection = await Connection.connect({ address: server.address });
    stops.push(() => connection.close());
    const client = new Client({ connection, namespace, dataConverter });
    const taskQueue = `bench-${randomUUID()}`;

    const workerNodeArgs = [
      ...(options.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(workDir, 'profiles')}`] : []),
      ...(options.workerHeapMb ? [`--max-old-space-size=${options.workerHeapMb}`] : []),
    ];
    const processEnv = (queue: string): Record<string, string> => ({
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      BANKFLOW_ENV: 'development',
      LOG_LEVEL: config.logLevel,
      BANKFLOW_DATA_DIR: path.join(workDir, `data-${queue}`),
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: queue,
      BANK_BASE_URL: sandbox.url,
      BANK_CLIENT_ID: benchCredentials.clientId,
      BANK_CLIENT_SECRET: benchCredentials.clientSecret,
      ...workerTuning(process.env),
    });

    // As deployed: the bank posts to a receiver process of its own, which does nothing else.
    const receiver = await startBankflowProcess({
      command: 'webhooks',
      env: {
        ...processEnv(taskQueue),
        WEBHOOK_HOST: '127.0.0.1',
        WEBHOOK_PORT: '0',
        WEBHOOK_SECRET: benchWebhookSecret,
      },
      nodeArgs: workerNodeArgs,
      logFile: path.join(workDir, 'receiver.log'),
      ready: /Webhooks\s+(http:\/\/\S+)\/webhooks/,
    });
    stops.push(() => receiver.stop());
    const receiverUrl = receiver.ready[1] ?? '';
    sandbox.webhooks.configure({ url: `${receiverUrl}/webhooks`, secret: benchWebhookSecret });

    const workerConnection = await NativeConnection.connect({ address: server.address });
    stops.push(() => workerConnection.close());
    const reportsDir = path.join(workDir, 'reports');
    mkdirSync(reportsDir, { recursive: true });
    const skeletonQueue = `bench-skeleton-${randomUUID()}`;
    // As `bankflow worker` runs at default settings: its workflow cache sized from this process's heap limit.
    const worker = await createBankflowWorker({
      connection: workerConnection,
      namespace,
      taskQueue,
      bank,
      jobs: { reportsDir, metricsBankAccountIds: [] },
      encryptionKeys,
      logger,
      tuning: { maxCachedWorkflows: config.temporal.maxCachedWorkflows },
      deployment: { name: taskQueue },
    });
    const skeletonWorker = await Worker.create({
      connection: workerConnection,
      namespace,
      taskQueue: skeletonQueue,
      workflowsPath: fileURLToPath(new URL('./skeleton/workflows.ts', import.meta.url)),
      activities: skeletonActivities,
    });
    for (const running of [worker, skeletonWorker]) {
      const done = running.run();
      stops.push(async () => {
        if (running.getState() === 'RUNNING') running.shutdown();
        await done;
      });
    }
    // As `bankflow worker` in development: its version is the one new runs go to.
    await promoteOwnVersion({
      connection: workerConnection,
      namespace,
      taskQueue,
      version: worker.options.workerDeploymentOptions!.version,
      promotion: 'always',
      logger,
    });

    return {
      address: server.address,
      namespace,
      temporalPid: server.pid,
      logger,
      logFile,
      workDir,
      client,
      sandbox,
      bank,
      taskQueue,
      receiverUrl,
      receiverPid: receiver.pid,
      skeleton: { client: new Client({ connection, namespace }), taskQueue: skeletonQueue },
      workflowCacheSize: config.temporal.maxCachedWorkflows,
      workerNodeArgs,
      processEnv,
      async stop(options = {}) {
        await stop();
        if (!options.keepFiles) rmSync(workDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

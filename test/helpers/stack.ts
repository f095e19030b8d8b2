import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import type { NotificationsConfig } from '../../src/config/notifications.js';
import type { Logger } from 'pino';
import { developmentEncryptionKeys, type BankConfig, type JobsConfig } from '../../src/config.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { parseEncryptionKeys } from '../../src/temporal/encryption.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../devkit/sandbox/app.js';
import { createReceiver } from '../../src/webhooks/app.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import type { FastifyInstance } from 'fastify';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import type { Tracing } from '../../src/tracing/setup.js';
import { tracingClientInterceptors } from '../../src/tracing/temporal.js';
import { promoteOwnVersion } from '../../src/temporal/worker-deployment.js';
import { createBankflowWorker, type BankflowWorker } from '../../src/worker.js';
import { testEnvKeys } from '../setup/shared.js';

/**
 * The CLI's development default, so CLI processes and in-test workers and clients read each other's payloads.
 */
export const encryptionKeys = parseEncryptionKeys(developmentEncryptionKeys);

export const sandboxCredentials = { clientId: 'test-client', clientSecret: 'test-client-secret-of-the-bank' };

export const receiverSecret = 'test-webhook-secret';

export interface TestStack {
  client: Client;
  sandbox: RunningSandbox;
  /** The webhook receiver's base URL, when the stack was started with one. */
  receiverUrl?: string;
  bank: BankConfig & { baseUrl: string };
  taskQueue: string;
  /**
   * The worker's scheduled-jobs settings; unless given, reports go to a temporary directory stop() removes.
   */
  jobs: JobsConfig;
  logger: Logger;
  worker: BankflowWorker;
  /** Stops the worker; `restartWorker` brings a fresh one up on the same task queue. */
  stopWorker(): Promise<void>;
  restartWorker(): Promise<void>;
  stop(): Promise<void>;
}

export function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest's global setup (npm test)`);
  return value;
}

export function testLogger(): Logger {
  // Expected failures (401s, injected 500s) log warnings; LOG_LEVEL=warn shows them.
  return createLogger((process.env.LOG_LEVEL as 'warn' | undefined) ?? 'error');
}

export interface TestStackOptions {
  seed?: number;
  now?: Date;
  bank?: Partial<BankConfig>;
  /** Run the webhook receiver and have the sandbox deliver its webhooks to it (fast retries). */
  receiver?: boolean;
  sandbox?: Pick<SandboxOptions, 'biometrics' | 'webhookDelivery' | 'rateLimit'>;
  /** Where every component logs; the test logger (LOG_LEVEL, default error) otherwise. */
  logger?: Logger;
  jobs?: Partial<JobsConfig>;
  /** The worker's tracing (the test's own tracer provider); none otherwise. */
  tracing?: Tracing;
  /** The merchant's notification endpoints and secrets the worker signs with; none otherwise. */
  notifications?: NotificationsConfig;
}

/**
 * The Temporal side a stack runs on: the worker's connection, the client tests use, and how to let go of
 * both.
 */
export interface StackTemporal {
  connection: NativeConnection;
  namespace: string;
  client: Client;
  close(): Promise<void>;
  /**
   * Whether the server routes tasks by Worker Deployment version, so the stack's worker makes its version
   * current (as `bankflow dev` does); the time-skipping test server hands every worker its tasks and has no
   * deployments.
   */
  routesByVersion?: boolean;
}

/**
 * The real stack for one test file: an in-process sandbox bank over HTTP, a bankflow worker on a task queue
 * of its own against the run's Temporal dev server, and a client.
 */
export async function startTestStack(options: TestStackOptions = {}) {
  const address = required(testEnvKeys.address);
  const namespace = required(testEnvKeys.namespace);
  const logger = options.logger ?? testLogger();
  installTemporalRuntime(logger);
  const workerConnection = await NativeConnection.connect({ address });
  const connection = await Connection.connect({ address });
  // Traced like every bankflow client (src/temporal/connection.ts): a no-op until a test registers a
  // provider.
  const client = new Client({
    connection,
    namespace,
    dataConverter: bankflowDataConverter(encryptionKeys),
    interceptors: tracingClientInterceptors(),
  });
  return startStackOn(
    {
      connection: workerConnection,
      namespace,
      client,
      async close() {
        await workerConnection.close();
        await connection.close();
      },
    },
    { ...options, logger },
  );
}

/** An in-process sandbox bank, a bankflow worker on a task queue of its own and, if asked, the receiver. */
export async function startStackOn(temporal: StackTemporal, options: TestStackOptions = {}) {
  const logger = options.logger ?? testLogger();
  const { client, namespace } = temporal;
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: options.seed ?? 42,
    now: options.now,
    credentials: sandboxCredentials,
    logger,
    webhookDelivery: { baseDelayMs: 50 },
    ...options.sandbox,
  });
  const bank = { ...sandboxCredentials, timeoutMs: 5_000, ...options.bank, baseUrl: sandbox.url };
  const taskQueue = `test-${randomUUID()}`;
  const reportsDir = options.jobs?.reportsDir ?? mkdtempSync(path.join(tmpdir(), 'bankflow-reports-'));
  // The stack's own directory, not one the test brought: removed when the stack stops.
  const ownsReportsDir = reportsDir !== options.jobs?.reportsDir;
  const jobs: JobsConfig = { metricsBankAccountIds: [], ...options.jobs, reportsDir };
  const newWorker = () =>
    createBankflowWorker({
      connection: temporal.connection,
      namespace,
      taskQueue,
      bank,
      jobs,
      notifications: options.notifications,
      encryptionKeys,
      logger,
      workflowBundle: { codePath: required(options.tracing ? testEnvKeys.tracedBundle : testEnvKeys.bundle) },
      tracing: options.tracing,
      // A deployment per task queue, as the configuration's default: stacks on one server never share
      // versions.
      deployment: { name: taskQueue, buildId: required(testEnvKeys.buildId) },
    });
  /** Runs a worker and, once its version routes the queue's new runs, hands back its run. */
  const startWorker = async (started: BankflowWorker): Promise<{ run: Promise<void> }> => {
    const run = started.run();
    const version = started.options.workerDeploymentOptions?.version;
    if (version && temporal.routesByVersion !== false) {
      const outcome = await promoteOwnVersion({
        connection: temporal.connection,
        namespace,
        taskQueue,
        version,
        promotion: 'always',
        logger,
      });
      if (outcome === 'refused')
        throw new Error(`the stack's worker version ${version.buildId} was not promoted`);
    }
    return { run };
  };
  let worker = await newWorker();
  let running: Promise<void> | undefined = (await startWorker(worker)).run;

  let receiver: FastifyInstance | undefined;
  let receiverUrl: string | undefined;
  if (options.receiver) {
    receiver = createReceiver({
      client,
      taskQueue,
      auth: { secrets: [receiverSecret], disabled: false, acceptSecretHeader: false },
      // Tests post envelopes with fixed timestamps (e.g. a recurrence's 2030 attempts); freshness has tests
      // of its own.
      maxAgeMs: undefined,
      router: bankflowRouter,
      logger,
    });
    receiverUrl = await receiver.listen({ host: '127.0.0.1', port: 0 });
    sandbox.webhooks.configure({ url: `${receiverUrl}/webhooks`, secret: receiverSecret });
  }

  const stack: TestStack = {
    client,
    sandbox,
    bank,
    taskQueue,
    jobs,
    logger,
    get worker() {
      return worker;
    },
    receiverUrl,
    async stopWorker() {
      if (!running) return;
      worker.shutdown();
      await running;
      running = undefined;
    },
    async restartWorker() {
      await stack.stopWorker();
      worker = await newWorker();
      running = (await startWorker(worker)).run;
    },
    async stop() {
      await sandbox.stop();
      await receiver?.close();
      await stack.stopWorker();
      await temporal.close();
      if (ownsReportsDir) await rm(reportsDir, { recursive: true, force: true });
    },
  };
  return stack;
}

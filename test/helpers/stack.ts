import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { BankConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/app.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { createBankflowWorker } from '../../src/worker.js';
import { testEnvKeys } from '../setup/shared.js';

export const sandboxCredentials = { clientId: 'test-client', clientSecret: 'test-secret' };

export interface TestStack {
  client: Client;
  sandbox: RunningSandbox;
  bank: BankConfig & { baseUrl: string };
  taskQueue: string;
  logger: Logger;
  worker: Worker;
  stop(): Promise<void>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through jest's global setup (npm test)`);
  return value;
}

export function testLogger(): Logger {
  // Expected failures (401s, injected 500s) log warnings; LOG_LEVEL=warn shows them.
  return createLogger((process.env.LOG_LEVEL as 'warn' | undefined) ?? 'error');
}

/**
 * The real stack for one test file: an in-process sandbox bank over HTTP, a bankflow worker on a task queue of
 * its own against the run's Temporal dev server, and a client.
 */
export async function startTestStack(
  options: { seed?: number; now?: Date; bank?: Partial<BankConfig> } = {},
) {
  const logger = testLogger();
  installTemporalRuntime(logger);
  const address = required(testEnvKeys.address);
  const namespace = required(testEnvKeys.namespace);

  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    seed: options.seed ?? 42,
    now: options.now,
    credentials: sandboxCredentials,
    logger,
  });
  const bank = { ...sandboxCredentials, timeoutMs: 5_000, ...options.bank, baseUrl: sandbox.url };
  const taskQueue = `test-${randomUUID()}`;
  const workerConnection = await NativeConnection.connect({ address });
  const worker = await createBankflowWorker({
    connection: workerConnection,
    namespace,
    taskQueue,
    bank,
    logger,
    workflowBundle: { codePath: required(testEnvKeys.bundle) },
  });
  const running = worker.run();
  const connection = await Connection.connect({ address });
  const client = new Client({ connection, namespace });

  const stack: TestStack = {
    client,
    sandbox,
    bank,
    taskQueue,
    logger,
    worker,
    async stop() {
      worker.shutdown();
      await running;
      await workerConnection.close();
      await connection.close();
      await sandbox.stop();
    },
  };
  return stack;
}

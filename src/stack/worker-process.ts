import type { Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { BankConfig, JobsConfig, TemporalConfig } from '../config.js';
import { connectWorkerConnection } from '../temporal/connection.js';
import { installTemporalRuntime } from '../temporal/runtime.js';
import { createBankflowWorker } from '../worker.js';

export interface RunningWorker {
  worker: Worker;
  /** Resolves when the worker has drained and stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/** Connects to Temporal and runs a bankflow worker until `stop()`. */
export async function startWorker(
  temporal: TemporalConfig,
  bank: BankConfig & { baseUrl: string },
  logger: Logger,
  jobs: JobsConfig,
): Promise<RunningWorker> {
  installTemporalRuntime(logger);
  const connection = await connectWorkerConnection(temporal);
  const worker = await createBankflowWorker({
    connection,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    bank,
    jobs,
    encryptionKeys: temporal.encryptionKeys,
    logger,
    tuning: { maxCachedWorkflows: temporal.maxCachedWorkflows },
  });
  const done = worker.run().finally(() => connection.close());
  return {
    worker,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await done;
    },
  };
}

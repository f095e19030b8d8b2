import type { WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import type { BankConfig, JobsConfig, TemporalConfig } from '../config.js';
import type { NotificationsConfig } from '../config/notifications.js';
import { connectWorkerConnection } from '../temporal/connection.js';
import { installTemporalRuntime, sdkMetricsBindAddress } from '../temporal/runtime.js';
import { createWorkerMetrics, serveMetrics } from '../temporal/worker-metrics.js';
import type { Tracing } from '../tracing/setup.js';
import { warnUnlessCurrent } from '../temporal/unpromoted-version.js';
import { promoteOwnVersion } from '../temporal/worker-deployment.js';
import { createBankflowWorker, type BankflowWorker } from '../worker.js';

export interface RunningWorker {
  worker: BankflowWorker;
  /** Resolves when the worker has drained and stopped. */
  done: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Connects to Temporal and runs a bankflow worker until `stop()`. `workflowBundle` replaces the workflow code
 * the worker would load (a plain bundle: its hash is the build id), as the chaos run's new build does.
 */
export async function startWorker(
  temporal: TemporalConfig,
  bank: BankConfig & { baseUrl: string },
  logger: Logger,
  settings: { jobs: JobsConfig; notifications?: NotificationsConfig },
  tracing?: Tracing,
  workflowBundle?: WorkerOptions['workflowBundle'],
): Promise<RunningWorker> {
  const metricsConfig = temporal.metrics;
  installTemporalRuntime(
    logger,
    metricsConfig?.sdkPort
      ? await sdkMetricsBindAddress(metricsConfig.host, metricsConfig.sdkPort, logger)
      : undefined,
  );
  const metrics = metricsConfig?.workerPort ? createWorkerMetrics() : undefined;
  const metricsServer =
    metrics && metricsConfig?.workerPort
      ? await serveMetrics(metrics.registry, metricsConfig.host, metricsConfig.workerPort, logger)
      : undefined;
  const connection = await connectWorkerConnection(temporal);
  const worker = await createBankflowWorker({
    connection,
    namespace: temporal.namespace,
    taskQueue: temporal.taskQueue,
    bank,
    jobs: settings.jobs,
    notifications: settings.notifications,
    encryptionKeys: temporal.encryptionKeys,
    logger,
    metrics: metricsServer ? metrics : undefined,
    tracing,
    tuning: { maxCachedWorkflows: temporal.maxCachedWorkflows },
    shutdownGraceMs: temporal.shutdownGraceMs,
    workflowBundle,
    deployment: { name: temporal.deployment.name },
  });
  const stopped = new AbortController();
  const done = worker.run().finally(async () => {
    stopped.abort();
    await connection.close();
    await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
  });
  const version = worker.options.workerDeploymentOptions?.version;
  if (version) {
    logger.info({ version, promotion: temporal.deployment.promotion }, 'worker version');
    // In the background: a promotion waits for the server to register the version, and tasks wait for it.
    void promoteOwnVersion({
      connection,
      namespace: temporal.namespace,
      taskQueue: temporal.taskQueue,
      version,
      promotion: temporal.deployment.promotion,
      logger,
      signal: stopped.signal,
    })
      .then(async (outcome) => {
        if (outcome === 'promoted' || outcome === 'already-current' || stopped.signal.aborted) return;
        await warnUnlessCurrent({
          connection,
          namespace: temporal.namespace,
          version,
          logger,
          signal: stopped.signal,
        });
      })
      .catch((error: unknown) => {
        // A worker stopping closes the connection under a promotion still waiting: nothing went wrong.
        if (!stopped.signal.aborted) logger.warn({ err: error }, 'worker version promotion or check failed');
      });
  }
  return {
    worker,
    done,
    async stop() {
      if (worker.getState() === 'RUNNING') {
        logger.info({ graceMs: temporal.shutdownGraceMs }, 'worker draining: running activities may finish');
        worker.shutdown();
      }
      await done;
    },
  };
}

import { pino } from 'pino';
import { resolveBank } from '../../src/bank/base-url.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { stopOnSignals } from '../../src/stack/shutdown.js';
import { connectWorkerConnection } from '../../src/temporal/connection.js';
import { promoteOwnVersion } from '../../src/temporal/worker-deployment.js';
import { createBankflowWorker } from '../../src/worker.js';
import { bundleBuildB } from '../../devkit/versioning/build-b.js';

/**
 * A worker of build B for the cluster's rolling deploy: `bankflow worker` as the environment configures it, but
 * running build B's workflows (devkit/versioning/build-b.ts). It prints its build id on stdout once it polls, and
 * stops on SIGTERM like `bankflow worker`.
 */
const config = loadConfig();
// Logs go to stderr: stdout carries the build id to the cluster test.
const logger = createLogger(config.logLevel, pino.destination(2));
const { temporal } = config;
const { code, buildId } = await bundleBuildB();
const connection = await connectWorkerConnection(temporal);
const worker = await createBankflowWorker({
  connection,
  namespace: temporal.namespace,
  taskQueue: temporal.taskQueue,
  bank: resolveBank(config),
  jobs: config.jobs,
  encryptionKeys: temporal.encryptionKeys,
  logger,
  tuning: { maxCachedWorkflows: temporal.maxCachedWorkflows },
  workflowBundle: { code },
  deployment: { name: temporal.deployment.name, buildId },
});
const running = worker.run().finally(() => connection.close());
stopOnSignals(logger, async () => {
  worker.shutdown();
  await running;
});
process.stdout.write(`${JSON.stringify({ buildId })}\n`);
await promoteOwnVersion({
  connection,
  namespace: temporal.namespace,
  taskQueue: temporal.taskQueue,
  version: { deploymentName: temporal.deployment.name, buildId },
  promotion: temporal.deployment.promotion,
  logger,
});
await running;

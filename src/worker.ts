import { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { bankActivityNames } from './activities/failures.js';
import { createActivities } from './activities/index.js';
import { BankClient } from './bank/client.js';
import type { BankConfig, JobsConfig } from './config.js';
import { bankflowDataConverter } from './temporal/data-converter.js';
import type { EncryptionKey } from './temporal/encryption.js';
import { bankCallInterceptor, type WorkerMetrics } from './temporal/worker-metrics.js';
import { stickyQueueScheduleToStartTimeout } from './temporal/worker-defaults.js';
import type { Tracing } from './tracing/setup.js';
import {
  tracingActivityInterceptor,
  tracingClientInterceptors,
  workflowSpanSinks,
} from './tracing/temporal.js';
import { workflowBuildId, workflowBuildIdOfFile } from './temporal/worker-deployment.js';
import { bundleWorkflows, hasPrebuiltWorkflowBundle, prebuiltWorkflowBundlePath } from './workflow-bundle.js';

export interface BankflowWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  bank: BankConfig & { baseUrl: string };
  /** Where scheduled jobs write their files and which accounts metrics snapshots read. */
  jobs: JobsConfig;
  /** Payload encryption keys, the same the clients use (current first). */
  encryptionKeys: EncryptionKey[];
  logger: Logger;
  /** Where the worker counts and times its bank calls; none when unset. */
  metrics?: WorkerMetrics;
  /** This process's tracing; activities are traced only when set (workflow spans are dropped otherwise). */
  tracing?: Tracing;
  /**
   * A prebuilt workflow bundle (a traced one when `tracing` is set); otherwise the one `npm run build` wrote, or
   * bundling from source.
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /**
   * The Worker Deployment the worker's version belongs to. Its build id is the workflow code's
   * (`workflowBuildId`): given with a prebuilt `workflowBundle` that is not the plain one, derived otherwise.
   */
  deployment: { name: string; buildId?: string };
  tuning?: Pick<
    WorkerOptions,
    'maxConcurrentActivityTaskExecutions' | 'maxConcurrentWorkflowTaskExecutions' | 'maxCachedWorkflows'
  >;
}

/**
 * Bundling at start costs seconds and leaves webpack's allocations in the worker (about 110 MB measured), so a
 * build's worker loads the bundle `npm run build` made. The build id is the plain bundle's (src/temporal/
 * worker-deployment.ts), so a worker bundling a traced one from source bundles the plain one too, for its id.
 */
async function workflowCode(
  given: WorkerOptions['workflowBundle'],
  traced: boolean,
): Promise<{ workflowBundle: NonNullable<WorkerOptions['workflowBundle']>; buildId?: string }> {
  if (given) return { workflowBundle: given };
  if (hasPrebuiltWorkflowBundle(traced)) {
    return {
      workflowBundle: { codePath: prebuiltWorkflowBundlePath(traced) },
      buildId: workflowBuildIdOfFile(prebuiltWorkflowBundlePath(false)),
    };
  }
  const plain = await bundleWorkflows(false);
  return {
    workflowBundle: traced ? await bundleWorkflows(true) : plain,
    buildId: workflowBuildId(plain.code),
  };
}

/** The build id of a given bundle: its own, when the caller did not say (a plain bundle's id is its hash). */
function givenBundleBuildId(bundle: NonNullable<WorkerOptions['workflowBundle']>): string {
  return 'code' in bundle ? workflowBuildId(bundle.code) : workflowBuildIdOfFile(bundle.codePath);
}

/** A worker serving every bankflow workflow and activity on one task queue. */
export async function createBankflowWorker(options: BankflowWorkerOptions): Promise<Worker> {
  const bank = new BankClient(options.bank, options.logger);
  const dataConverter = bankflowDataConverter(options.encryptionKeys, 'mark');
  const activities = createActivities({
    bank,
    bankRequestsPerSecond: options.bank.requestsPerSecond,
    jobs: options.jobs,
    // The same keys as the worker's: activities read and signal workflows whose payloads are encrypted; as a
    // client, it refuses plaintext outright.
    temporal: new Client({
      connection: options.connection,
      namespace: options.namespace,
      dataConverter: bankflowDataConverter(options.encryptionKeys),
      interceptors: tracingClientInterceptors(),
    }),
  });
  const metrics = options.metrics
    ? [bankCallInterceptor(options.metrics, bankActivityNames(activities))]
    : [];
  const code = await workflowCode(options.workflowBundle, options.tracing !== undefined);
  const buildId = options.deployment.buildId ?? code.buildId ?? givenBundleBuildId(code.workflowBundle);
  const create = () =>
    Worker.create({
      connection: options.connection,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      activities,
      interceptors: {
        // The activity's span first, so the bank call's timing and its HTTP span sit inside it.
        activity: [...(options.tracing ? [tracingActivityInterceptor] : []), ...metrics],
      },
      sinks: workflowSpanSinks(options.tracing),
      dataConverter,
      // Temporal's matching service hands out this many activity tasks per second to all the queue's workers
      // together; every bank call is an activity on this queue (docs/decisions.md).
      maxTaskQueueActivitiesPerSecond: options.bank.requestsPerSecond,
      workflowBundle: code.workflowBundle,
      // Each workflow type declares its own behavior (src/workflows/versioning.ts); pinned is the safe default.
      workerDeploymentOptions: {
        version: { deploymentName: options.deployment.name, buildId },
        useWorkerVersioning: true,
        defaultVersioningBehavior: 'PINNED',
      },
      stickyQueueScheduleToStartTimeout,
      ...options.tuning,
    });
  return create();
}

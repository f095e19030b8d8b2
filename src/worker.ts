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
import { withWorkflowThreadHeap, type WorkflowThreadHeap } from './temporal/workflow-thread-heap.js';
import type { Tracing } from './tracing/setup.js';
import {
  tracingActivityInterceptor,
  tracingClientInterceptors,
  workflowSpanSinks,
} from './tracing/temporal.js';
import {
  hasPrebuiltWorkflowBundle,
  prebuiltWorkflowBundlePath,
  workflowInterceptorModules,
  workflowsPath,
} from './workflow-bundle.js';

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
  tuning?: Pick<
    WorkerOptions,
    'maxConcurrentActivityTaskExecutions' | 'maxConcurrentWorkflowTaskExecutions' | 'maxCachedWorkflows'
  >;
  /** The V8 heap of the SDK's workflow thread; V8's defaults, sized from the machine's memory, when unset. */
  workflowThreadHeap?: WorkflowThreadHeap;
}

/**
 * Bundling at start costs seconds and leaves webpack's allocations in the worker (about 110 MB measured), so a
 * build's worker loads the bundle `npm run build` made. A bundle already holds its workflow interceptor modules
 * (src/workflow-bundle.ts); the SDK ignores a list given beside one, and warns at every start, so only a worker
 * bundling at start names them.
 */
function workflowCode(
  given: WorkerOptions['workflowBundle'],
  traced: boolean,
): Pick<WorkerOptions, 'workflowBundle' | 'workflowsPath'> & { workflowModules?: string[] } {
  if (given) return { workflowBundle: given };
  if (hasPrebuiltWorkflowBundle(traced)) {
    return { workflowBundle: { codePath: prebuiltWorkflowBundlePath(traced) } };
  }
  return { workflowsPath, workflowModules: workflowInterceptorModules(traced) };
}

/** A worker serving every bankflow workflow and activity on one task queue. */
export function createBankflowWorker(options: BankflowWorkerOptions): Promise<Worker> {
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
  const { workflowModules, ...code } = workflowCode(options.workflowBundle, options.tracing !== undefined);
  const create = () =>
    Worker.create({
      connection: options.connection,
      namespace: options.namespace,
      taskQueue: options.taskQueue,
      activities,
      interceptors: {
        ...(workflowModules ? { workflowModules } : {}),
        // The activity's span first, so the bank call's timing and its HTTP span sit inside it.
        activity: [...(options.tracing ? [tracingActivityInterceptor] : []), ...metrics],
      },
      sinks: workflowSpanSinks(options.tracing),
      dataConverter,
      // Temporal's matching service hands out this many activity tasks per second to all the queue's workers
      // together; every bank call is an activity on this queue (docs/decisions.md).
      maxTaskQueueActivitiesPerSecond: options.bank.requestsPerSecond,
      ...code,
      ...options.tuning,
    });
  return options.workflowThreadHeap ? withWorkflowThreadHeap(options.workflowThreadHeap, create) : create();
}

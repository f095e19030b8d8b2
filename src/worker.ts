import { Client } from '@temporalio/client';
import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { bankActivityNames } from './activities/failures.js';
import { createActivities } from './activities/index.js';
import type { NotificationsConfig } from './config/notifications.js';
import { BankClient } from './bank/client.js';
import type { BankConfig, JobsConfig } from './config.js';
import { bankQueueRates } from './config/bank.js';
import {
  interactiveBankCalls,
  journeyPollReads,
  workloadTaskQueue,
  type Workload,
} from './contract/temporal.js';
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
  /**
   * The workflows' task queue; the worker serves the workload queues beside it too
   * (src/contract/temporal.ts).
   */
  taskQueue: string;
  bank: BankConfig & { baseUrl: string };
  /** Where scheduled jobs write their files and which accounts metrics snapshots read. */
  jobs: JobsConfig;
  /** The merchant's notification endpoints and signing secrets; none when unset. */
  notifications?: NotificationsConfig;
  /** Payload encryption keys, the same the clients use (current first). */
  encryptionKeys: EncryptionKey[];
  logger: Logger;
  /** Where the worker counts and times its bank calls; none when unset. */
  metrics?: WorkerMetrics;
  /** This process's tracing; activities are traced only when set (workflow spans are dropped otherwise). */
  tracing?: Tracing;
  /**
   * A prebuilt workflow bundle (a traced one when `tracing` is set); otherwise the one `npm run build` wrote,
   * or bundling from source.
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
  /**
   * How long `shutdown()` lets the activities under way finish (WORKER_SHUTDOWN_GRACE_SECONDS); those still
   * running then are cancelled. Unset: cancelled at once, as tests that stop a worker mid-journey want.
   */
  shutdownGraceMs?: number;
}

/**
 * Bundling at start costs seconds and leaves webpack's allocations in the worker (about 110 MB measured), so
 * a build's worker loads the bundle `npm run build` made. The build id is the plain bundle's (src/temporal/
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

/**
 * A bankflow worker: an SDK Worker per task queue it serves (a Worker polls one queue), all of one deployment
 * version, started and stopped together.
 */
export class BankflowWorker {
  constructor(
    private readonly byWorkload: Record<Workload, Worker>,
    /** Aborted when the worker begins to stop: activities that loop start no new call after it. */
    private readonly stopping = new AbortController(),
  ) {}

  /** The workflow queue's Worker, whose options name the deployment version. */
  get options(): Worker['options'] {
    return this.byWorkload.background.options;
  }

  /** The Worker serving `workload`'s task queue. */
  worker(workload: Workload): Worker {
    return this.byWorkload[workload];
  }

  getState(): ReturnType<Worker['getState']> {
    return this.byWorkload.background.getState();
  }

  /**
   * Stops polling on every queue; the activities under way get the grace time (`shutdownGraceMs`) to finish,
   * and those that loop end after the call in flight.
   */
  shutdown(): void {
    this.stopping.abort();
    for (const worker of Object.values(this.byWorkload)) {
      if (worker.getState() === 'RUNNING') worker.shutdown();
    }
  }

  /** Runs every Worker until shutdown; one that fails stops the others, so no queue is left half served. */
  async run(): Promise<void> {
    const runs = Object.values(this.byWorkload).map((worker) => worker.run());
    try {
      await Promise.all(runs);
    } catch (error) {
      this.shutdown();
      await Promise.allSettled(runs);
      throw error;
    }
  }
}

const pick = (activities: Record<string, unknown>, names: (name: string) => boolean) =>
  Object.fromEntries(Object.entries(activities).filter(([name]) => names(name)));

/** A worker serving every bankflow workflow and activity, on the task queues of their workloads. */
export async function createBankflowWorker(options: BankflowWorkerOptions): Promise<BankflowWorker> {
  const bank = new BankClient(options.bank, options.logger);
  const dataConverter = bankflowDataConverter(options.encryptionKeys, 'mark');
  const stopping = new AbortController();
  const rates = bankQueueRates(options.bank);
  const activities = createActivities({
    bank,
    // The attempts sync's pages are background calls: its slices are planned for what polls leave of that
    // share.
    bankRequestsPerSecond: rates.background,
    taskQueue: options.taskQueue,
    jobs: options.jobs,
    notifications: options.notifications,
    stopping: stopping.signal,
    // The same keys as the worker's: activities read and signal workflows whose payloads are encrypted; as a
    // client, it refuses plaintext outright.
    temporal: new Client({
      connection: options.connection,
      namespace: options.namespace,
      dataConverter: bankflowDataConverter(options.encryptionKeys),
      interceptors: tracingClientInterceptors(),
    }),
  });
  const bankCalls = bankActivityNames(activities);
  const metrics = options.metrics ? [bankCallInterceptor(options.metrics, bankCalls)] : [];
  const code = await workflowCode(options.workflowBundle, options.tracing !== undefined);
  const buildId = options.deployment.buildId ?? code.buildId ?? givenBundleBuildId(code.workflowBundle);
  const common = {
    connection: options.connection,
    namespace: options.namespace,
    interceptors: {
      // The activity's span first, so the bank call's timing and its HTTP span sit inside it.
      activity: [...(options.tracing ? [tracingActivityInterceptor] : []), ...metrics],
    },
    dataConverter,
    // A deploy's SIGTERM lets a notification's POST or a bank call finish rather than cut it and send it
    // again.
    shutdownGraceTime: options.shutdownGraceMs ?? 0,
    // Each workflow type declares its own behavior (src/workflows/versioning.ts); pinned is the safe default.
    workerDeploymentOptions: {
      version: { deploymentName: options.deployment.name, buildId },
      useWorkerVersioning: true,
      defaultVersioningBehavior: 'PINNED',
    },
  } satisfies Partial<WorkerOptions>;
  const activityWorker = (workload: Workload, served: (name: string) => boolean, rate?: number) =>
    Worker.create({
      ...common,
      taskQueue: workloadTaskQueue(options.taskQueue, workload),
      activities: pick(activities, served),
      maxTaskQueueActivitiesPerSecond: rate,
      ...(options.tuning?.maxConcurrentActivityTaskExecutions
        ? { maxConcurrentActivityTaskExecutions: options.tuning.maxConcurrentActivityTaskExecutions }
        : {}),
    });
  const interactive = new Set<string>(interactiveBankCalls);
  const polls = new Set<string>(journeyPollReads);
  const byWorkload = {
    background: await Worker.create({
      ...common,
      taskQueue: workloadTaskQueue(options.taskQueue, 'background'),
      // Every activity, so one a run scheduled here before the workload queues existed still runs, paced.
      activities,
      sinks: workflowSpanSinks(options.tracing),
      // Temporal's matching service hands out this many activity tasks per second to all the queue's workers
      // together; the other bank queue takes the rest of the bank's budget (docs/decisions.md).
      maxTaskQueueActivitiesPerSecond: rates.background,
      // An activity dispatched eagerly in a workflow task's answer skips the queue's rate limit; the SDK
      // already skips eager dispatch on a rate-limited queue, and this says so whatever the SDK's version.
      maxEagerActivityReservationsPerWorkflowTask: 0,
      workflowBundle: code.workflowBundle,
      stickyQueueScheduleToStartTimeout,
      ...options.tuning,
    }),
    interactive: await activityWorker('interactive', (name) => interactive.has(name), rates.interactive),
    // The fleet's poll budget: however many journeys are open, their polls never take more of the bank.
    polls: await activityWorker('polls', (name) => polls.has(name), rates.polls),
    internal: await activityWorker('internal', (name) => !bankCalls.has(name)),
  };
  return new BankflowWorker(byWorkload, stopping);
}

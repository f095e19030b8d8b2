import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { WorkerDeploymentVersion } from '@temporalio/common';
import proto, { type temporal } from '@temporalio/proto';
import type { Logger } from 'pino';
import { workerTaskQueues } from '../contract/temporal.js';

/**
 * When a worker makes its own version the deployment's current one: `never` leaves it to an operator
 * (`bankflow deployments promote`), `if-no-current` only for a deployment with no current version yet (a new
 * namespace's first worker), `always` at every start (development: the code just started is the code to run).
 */
export const versionPromotions = ['never', 'if-no-current', 'always'] as const;
export type VersionPromotion = (typeof versionPromotions)[number];

/** The Worker Deployment a worker belongs to, and when it promotes its own version. */
export interface WorkerDeployment {
  name: string;
  promotion: VersionPromotion;
}

/**
 * A build id names the workflow code a worker runs: the hash of its plain workflow bundle, so two workers
 * built from the same source share a version and a changed workflow makes a new one. A traced worker takes
 * the id of the plain bundle beside its traced one: the traces add no command, and test/replay replays every
 * history on both bundles.
 */
export function workflowBuildId(bundleCode: string): string {
  return createHash('sha256').update(bundleCode).digest('hex').slice(0, 20);
}

export const workflowBuildIdOfFile = (bundlePath: string) =>
  workflowBuildId(readFileSync(bundlePath, 'utf8'));

/** A client's or a worker's connection: both reach the workflow service. */
export interface WorkflowServiceHolder {
  workflowService: temporal.api.workflowservice.v1.WorkflowService;
}

/** gRPC status codes the deployment calls answer with (grpc-js is not a direct dependency). */
export const grpcStatus = { NOT_FOUND: 5, FAILED_PRECONDITION: 9 } as const;

export const grpcCode = (error: unknown) => (error as { code?: number }).code;

const workflowTaskQueue = proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW;

/** The deployment versions of the workers polling `taskQueue` for workflow tasks lately, one per poller. */
export async function workflowPollerVersions(
  connection: WorkflowServiceHolder,
  namespace: string,
  taskQueue: string,
): Promise<Partial<WorkerDeploymentVersion>[]> {
  const { pollers } = await connection.workflowService.describeTaskQueue({
    namespace,
    taskQueue: { name: taskQueue },
    taskQueueType: workflowTaskQueue,
  });
  return (pollers ?? []).map((poller) => ({
    deploymentName: poller.deploymentOptions?.deploymentName ?? undefined,
    buildId: poller.deploymentOptions?.buildId ?? undefined,
  }));
}

/**
 * Waits until the server has seen this version poll `taskQueue` and each workload queue beside it (it
 * registers a version's queue at its first poll there): promoting a version that lacks a queue the current
 * one serves is refused, and that queue's tasks would wait for it.
 */
async function registered(
  connection: WorkflowServiceHolder,
  namespace: string,
  version: WorkerDeploymentVersion,
  taskQueue: string,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // The poller first: the dev server logs an error for each version it is asked about and does not know.
    const pollers = await workflowPollerVersions(connection, namespace, taskQueue);
    if (pollers.some((p) => p.deploymentName === version.deploymentName && p.buildId === version.buildId)) {
      try {
        const { workerDeploymentVersionInfo: info } =
          await connection.workflowService.describeWorkerDeploymentVersion({
            namespace,
            deploymentVersion: version,
          });
        const served = new Set(info?.taskQueueInfos?.map((queue) => queue.name));
        if (workerTaskQueues(taskQueue).every((queue) => served.has(queue))) return true;
      } catch (error) {
        if (grpcCode(error) !== grpcStatus.NOT_FOUND) throw error;
      }
    }
    if (Date.now() > deadline || signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export type PromotionOutcome = 'promoted' | 'already-current' | 'left-to-operator' | 'refused';

/**
 * Makes a running worker's version the deployment's current one when `promotion` asks for it. A versioned
 * worker gets no task of a new run until its version is current (or ramping): new runs wait on the task queue
 * until then. The conflict token makes two workers starting at once agree: the second one sees the first's
 * choice.
 */
export async function promoteOwnVersion(options: {
  connection: WorkflowServiceHolder;
  namespace: string;
  taskQueue: string;
  version: WorkerDeploymentVersion;
  promotion: VersionPromotion;
  logger: Logger;
  timeoutMs?: number;
  /** Aborted when the worker stops before its version registered: then there is nothing to promote. */
  signal?: AbortSignal;
}): Promise<PromotionOutcome> {
  const { connection, namespace, version, promotion, logger } = options;
  if (promotion === 'never') return 'left-to-operator';
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!(await registered(connection, namespace, version, options.taskQueue, timeoutMs, options.signal))) {
    if (!options.signal?.aborted) {
      logger.warn({ version }, 'the server has not registered this worker version; it was not promoted');
    }
    return 'refused';
  }
  const deadline = Date.now() + timeoutMs;
  let conflicts = 0;
  for (;;) {
    let described;
    try {
      described = await connection.workflowService.describeWorkerDeployment({
        namespace,
        deploymentName: version.deploymentName,
      });
    } catch (error) {
      // The deployment is its own record on the server, written shortly after its first version registers.
      if (grpcCode(error) !== grpcStatus.NOT_FOUND || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    const { workerDeploymentInfo, conflictToken } = described;
    const current = workerDeploymentInfo?.routingConfig?.currentDeploymentVersion;
    if (current?.buildId === version.buildId) return 'already-current';
    if (current && promotion === 'if-no-current') return 'left-to-operator';
    try {
      await connection.workflowService.setWorkerDeploymentCurrentVersion({
        namespace,
        deploymentName: version.deploymentName,
        buildId: version.buildId,
        conflictToken,
        identity: 'bankflow worker',
      });
      logger.info({ version, previous: current?.buildId ?? null }, 'worker version promoted to current');
      return 'promoted';
    } catch (error) {
      // Most often a changed conflict token: another worker promoted meanwhile, so look again.
      if (grpcCode(error) === grpcStatus.FAILED_PRECONDITION && conflicts++ < 3) continue;
      if (grpcCode(error) === grpcStatus.NOT_FOUND && Date.now() <= deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      logger.warn(
        { version, err: error },
        'worker version not promoted; promote it with bankflow deployments',
      );
      return 'refused';
    }
  }
}

import type { WorkerDeploymentVersion } from '@temporalio/common';
import type { Logger } from 'pino';
import { grpcCode, grpcStatus, type WorkflowServiceHolder } from './worker-deployment.js';

/** The deployment's current build id: null when it has none, or when no worker of it has polled yet. */
async function currentBuildId(
  connection: WorkflowServiceHolder,
  namespace: string,
  deploymentName: string,
): Promise<string | null> {
  try {
    const { workerDeploymentInfo } = await connection.workflowService.describeWorkerDeployment({
      namespace,
      deploymentName,
    });
    return workerDeploymentInfo?.routingConfig?.currentDeploymentVersion?.buildId || null;
  } catch (error) {
    if (grpcCode(error) === grpcStatus.NOT_FOUND) return null;
    throw error;
  }
}

const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Says loudly when a worker that does not promote itself starts on a version that takes no new run: with no
 * current version at all, no versioned worker gets a workflow task and every run waits in silence. Once at
 * start, and once more after `recheckMs` if the deployment still has no current version (a first deploy
 * nobody promoted).
 */
export async function warnUnlessCurrent(options: {
  connection: WorkflowServiceHolder;
  namespace: string;
  version: WorkerDeploymentVersion;
  logger: Logger;
  recheckMs?: number;
  /** Aborted when the worker stops: then there is nothing left to warn about. */
  signal?: AbortSignal;
}): Promise<'current' | 'other-current' | 'no-current'> {
  const { connection, namespace, version, logger, signal } = options;
  const recheckMs = options.recheckMs ?? 60_000;
  const promote = `bankflow deployments promote ${version.buildId}`;
  const current = await currentBuildId(connection, namespace, version.deploymentName);
  if (current === version.buildId) return 'current';
  if (current) {
    logger.warn(
      { version, current },
      `worker version ${version.buildId} is not the current version of deployment ${version.deploymentName} ` +
        `(${current} is): it gets no new run until \`${promote}\``,
    );
    return 'other-current';
  }
  const warnNoCurrent = (detail: string) =>
    logger.warn(
      { version, current: null },
      `deployment ${version.deploymentName} has no current version${detail}: no worker gets a workflow task ` +
        `and every run waits; \`${promote}\` makes this worker's version current`,
    );
  warnNoCurrent('');
  await pause(recheckMs, signal);
  if (signal?.aborted) return 'no-current';
  if ((await currentBuildId(connection, namespace, version.deploymentName)) !== null) return 'no-current';
  warnNoCurrent(` still, ${Math.round(recheckMs / 1000)} s after this worker started`);
  return 'no-current';
}

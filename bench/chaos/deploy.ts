import { setTimeout as sleep } from 'node:timers/promises';
import { listVersions, promoteVersion, type DeploymentTarget } from '../../src/temporal/deployments.js';
import type { ChaosStack } from './stack.js';

/**
 * The deploy a run made: which worker slot took the new build, the two build ids, and when the new one became
 * current.
 */
export interface DeployRecord {
  slot: number;
  initialBuildId: string;
  newBuildId: string;
  /**
   * When the server made the new build current (epoch ms, its routing config's record), to compare with the
   * histories' event times. Not when the promote call returned: under load that answer, or its retry after a
   * timed-out first try, comes seconds after new runs already start on the new build.
   */
  promotedAt: number;
  /** The same, from the start of the run. */
  promotedAtMs: number;
}

export const deploymentTarget = (stack: ChaosStack): DeploymentTarget => ({
  service: stack.client.connection,
  namespace: stack.config.temporal.namespace,
  deploymentName: stack.config.temporal.deployment.name,
  taskQueue: stack.config.temporal.taskQueue,
});

/** Tries `action` until it yields a value, through a Temporal restart, for at most two minutes. */
async function eventually<T>(what: string, action: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 120_000;
  let last: unknown;
  for (;;) {
    try {
      const value = await action();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      throw new Error(`${what}: not within 2 minutes${last ? ` (${(last as Error).message})` : ''}`);
    }
    await sleep(1_000);
  }
}

/**
 * When `buildId` became the deployment's current version, by the server's clock; undefined while it is not.
 */
async function currentSince(stack: ChaosStack, buildId: string): Promise<number | undefined> {
  const { workerDeploymentInfo } = await stack.client.connection.workflowService.describeWorkerDeployment({
    namespace: stack.config.temporal.namespace,
    deploymentName: stack.config.temporal.deployment.name,
  });
  const routing = workerDeploymentInfo?.routingConfig;
  if (routing?.currentDeploymentVersion?.buildId !== buildId || !routing.currentVersionChangedTime)
    return undefined;
  const { seconds, nanos } = routing.currentVersionChangedTime;
  return Number(seconds ?? 0) * 1000 + Math.floor((nanos ?? 0) / 1e6);
}

/**
 * A rolling deploy of one worker, as docs/upgrading-workflows.md describes it, with the other workers left on
 * the old build: the slot's worker stops (SIGTERM) and the new build starts in its place, registers its
 * version, and the deploy promotes it (`bankflow deployments promote`'s call). From then on new runs start on
 * it and long-lived runs continue as new onto it at their next task, while the other runs pinned to the old
 * build finish on the workers still running it.
 */
export async function deployNewBuild(
  stack: ChaosStack,
  slot: number,
  startedAt: number,
  log: (line: string) => void,
): Promise<DeployRecord> {
  const target = deploymentTarget(stack);
  const initialBuildId = await eventually('the current version', async () => {
    const versions = await listVersions(target);
    return versions.find((version) => version.state === 'current')?.buildId;
  });
  // A new build that fails to start exits and the pool starts it again; its version registering is what
  // counts.
  await stack.workers
    .redeploy(slot)
    .catch(() => log(`worker ${slot + 1}: the new build's first start failed; starting it again`));
  const newBuildId = await eventually('the new build polling', async () => {
    const versions = await listVersions(target);
    return versions.find((version) => version.buildId !== initialBuildId && version.pollers > 0)?.buildId;
  });
  await eventually('the promotion', () => promoteVersion(target, newBuildId, 'bankflow chaos deploy'));
  const promotedAt = await eventually('the promotion time', () => currentSince(stack, newBuildId));
  return { slot, initialBuildId, newBuildId, promotedAt, promotedAtMs: promotedAt - startedAt };
}

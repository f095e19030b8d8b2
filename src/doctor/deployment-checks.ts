import type { Client } from '@temporalio/client';
import type { Config } from '../config.js';
import { listVersions, type DeploymentTarget, type VersionView } from '../temporal/deployments.js';
import { attempt, fail, pass, type CheckResult } from './check.js';

const guide = 'docs/upgrading-workflows.md';

const startWorkersFix = (target: DeploymentTarget) =>
  `start the workers (bankflow worker, TEMPORAL_DEPLOYMENT_NAME=${target.deploymentName})`;

const promoteFix = (versions: VersionView[], startWorkers: string) => {
  const polling = versions.filter((version) => version.pollers > 0);
  if (polling.length === 0) return `${startWorkers}, then bankflow deployments promote <build id>`;
  return polling.map((version) => `bankflow deployments promote ${version.buildId}`).join(', or ');
};

function currentCheck(target: DeploymentTarget, versions: VersionView[], startWorkers: string): CheckResult {
  const name = 'current version';
  const current = versions.find((version) => version.state === 'current');
  if (!current) {
    return fail(
      name,
      `deployment ${target.deploymentName} has no current version: no worker gets a workflow task, every run waits`,
      promoteFix(versions, startWorkers),
    );
  }
  if (current.pollers === 0) {
    const others = versions.filter((version) => version !== current);
    return fail(
      name,
      `${current.buildId} is current but no worker of it polls ${target.taskQueue}: new runs wait`,
      `start its workers (the build ${current.buildId} came from)` +
        (others.some((version) => version.pollers > 0) ? `, or ${promoteFix(others, startWorkers)}` : ''),
    );
  }
  return pass(name, `${current.buildId}, ${current.pollers} poller(s) on ${target.taskQueue}`);
}

function rampingCheck(versions: VersionView[]): CheckResult[] {
  const ramping = versions.find((version) => version.state === 'ramping');
  if (!ramping) return [];
  const detail = `${ramping.buildId} takes ${ramping.rampPercent}% of new runs`;
  if (ramping.pollers > 0) return [pass('ramping version', `${detail}, ${ramping.pollers} poller(s)`)];
  return [
    fail(
      'ramping version',
      `${detail} but no worker of it polls: those runs wait`,
      `start its workers, or end the ramp: bankflow deployments ramp ${ramping.buildId} --percent 0`,
    ),
  ];
}

function pinnedCheck(versions: VersionView[]): CheckResult {
  const name = 'pinned runs';
  const waiting = versions.filter((version) => version.openPinned > 0 && version.pollers === 0);
  if (waiting.length === 0) {
    const pinned = versions.reduce((sum, version) => sum + version.openPinned, 0);
    return pass(name, `${pinned} open run(s) pinned, each on a version with pollers`);
  }
  return fail(
    name,
    waiting
      .map((version) => `${version.buildId}: ${version.openPinned} open run(s) pinned to it, no worker polls`)
      .join('; '),
    `start the workers of ${waiting.map((version) => version.buildId).join(', ')}, or move their runs to ` +
      `the current version as ${guide} says (temporal workflow update-options ... ` +
      `--versioning-override-behavior auto_upgrade)`,
  );
}

/**
 * The deployment the workers belong to, read as `bankflow deployments list` reads it: a versioned worker gets
 * no task until its version is current, and a pinned run waits for its own version's workers. Both stall in
 * silence.
 */
export async function deploymentChecks(config: Config, client: Client): Promise<CheckResult[]> {
  const target: DeploymentTarget = {
    service: client.connection,
    namespace: config.temporal.namespace,
    deploymentName: config.temporal.deployment.name,
    taskQueue: config.temporal.taskQueue,
  };
  const name = 'worker deployment';
  const startWorkers = startWorkersFix(target);
  let versions: VersionView[] = [];
  const found = await attempt(name, 'check that Temporal answers (see the temporal check)', async () => {
    versions = await listVersions(target);
    if (versions.length === 0) {
      return fail(
        name,
        `no worker of deployment ${target.deploymentName} has polled ${target.taskQueue} yet`,
        startWorkers,
      );
    }
    return pass(name, `${target.deploymentName}: ${versions.length} version(s)`);
  });
  if (!found.ok) return [found];
  return [found, ...versionChecks(target, versions)];
}

/**
 * What the deployment's versions say: a current version that polls, a ramp that is served, pinned runs
 * served.
 */
export function versionChecks(target: DeploymentTarget, versions: VersionView[]): CheckResult[] {
  return [
    currentCheck(target, versions, startWorkersFix(target)),
    ...rampingCheck(versions),
    pinnedCheck(versions),
  ];
}

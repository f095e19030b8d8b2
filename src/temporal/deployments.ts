import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import proto from '@temporalio/proto';
import { longLivedWorkflowTypes, versionCheckSignal } from '../contract/temporal.js';
import {
  grpcCode,
  grpcStatus,
  workflowPollerVersions,
  type WorkflowServiceHolder,
} from './worker-deployment.js';

const { BatchOperationState, WorkerDeploymentVersionStatus } = proto.temporal.api.enums.v1;

/** Where an operator's deployment commands act: one deployment, served on one task queue. */
export interface DeploymentTarget {
  service: WorkflowServiceHolder;
  namespace: string;
  deploymentName: string;
  taskQueue: string;
}

export type VersionState = 'current' | 'ramping' | 'draining' | 'drained' | 'inactive';

export interface VersionView {
  buildId: string;
  state: VersionState;
  /** The share of new runs it takes while ramping, percent. */
  rampPercent: number | null;
  /** Open runs pinned to it: they finish on it, so its workers must stay up while any is open. */
  openPinned: number;
  /**
   * Open auto-upgrade runs whose last task ran on it: they move to the current version at their next task.
   */
  openAutoUpgrade: number;
  /** Workers of this build polling the task queue for workflow tasks in the last minutes. */
  pollers: number;
  createdAt: string | null;
}

/** A version no operator command knows: the error names it and the deployment. */
export class UnknownVersionError extends Error {
  constructor(target: DeploymentTarget, buildId: string) {
    super(`<build-id>: no version ${buildId} in deployment ${target.deploymentName}`);
  }
}

const stateNames: Record<number, VersionState> = {
  [WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_CURRENT]: 'current',
  [WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_RAMPING]: 'ramping',
  [WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINING]: 'draining',
  [WorkerDeploymentVersionStatus.WORKER_DEPLOYMENT_VERSION_STATUS_DRAINED]: 'drained',
};

const isoTime = (time: { seconds?: unknown } | null | undefined) =>
  time?.seconds ? new Date(Number(time.seconds) * 1000).toISOString() : null;

/**
 * Visibility's quoting of a literal: single quotes, a quote doubled never appears in a deployment name or id.
 */
const literal = (value: string) => `'${value.replaceAll("'", '')}'`;

async function countOpen(target: DeploymentTarget, buildId: string, behavior: 'Pinned' | 'AutoUpgrade') {
  const { count } = await target.service.workflowService.countWorkflowExecutions({
    namespace: target.namespace,
    query:
      `TemporalWorkerDeploymentVersion = ${literal(`${target.deploymentName}:${buildId}`)} AND ` +
      `TemporalWorkflowVersioningBehavior = '${behavior}' AND ExecutionStatus = 'Running'`,
  });
  return Number(count ?? 0);
}

async function pollersByBuild(target: DeploymentTarget): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const poller of await workflowPollerVersions(target.service, target.namespace, target.taskQueue)) {
    if (poller.deploymentName !== target.deploymentName || !poller.buildId) continue;
    counts.set(poller.buildId, (counts.get(poller.buildId) ?? 0) + 1);
  }
  return counts;
}

async function describeVersion(target: DeploymentTarget, buildId: string) {
  try {
    const { workerDeploymentVersionInfo } =
      await target.service.workflowService.describeWorkerDeploymentVersion({
        namespace: target.namespace,
        deploymentVersion: { deploymentName: target.deploymentName, buildId },
      });
    return workerDeploymentVersionInfo ?? undefined;
  } catch (error) {
    // The deployment lists a new version a moment before the version's own record is written: not routed yet.
    if (grpcCode(error) === grpcStatus.NOT_FOUND) return undefined;
    throw error;
  }
}

/** The deployment's versions, newest first; none when no worker of it has polled yet. */
export async function listVersions(target: DeploymentTarget): Promise<VersionView[]> {
  let summaries;
  try {
    const { workerDeploymentInfo } = await target.service.workflowService.describeWorkerDeployment({
      namespace: target.namespace,
      deploymentName: target.deploymentName,
    });
    summaries = workerDeploymentInfo?.versionSummaries ?? [];
  } catch (error) {
    if (grpcCode(error) === grpcStatus.NOT_FOUND) return [];
    throw error;
  }
  const pollers = await pollersByBuild(target);
  const views = await Promise.all(
    summaries.map(async (summary): Promise<VersionView> => {
      const buildId = summary.deploymentVersion?.buildId ?? '';
      const info = await describeVersion(target, buildId);
      const state = stateNames[info?.status ?? 0] ?? 'inactive';
      return {
        buildId,
        state,
        rampPercent: state === 'ramping' ? (info?.rampPercentage ?? 0) : null,
        openPinned: await countOpen(target, buildId, 'Pinned'),
        openAutoUpgrade: await countOpen(target, buildId, 'AutoUpgrade'),
        pollers: pollers.get(buildId) ?? 0,
        createdAt: isoTime(summary.createTime),
      };
    }),
  );
  return views.sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
}

async function knownVersion(target: DeploymentTarget, buildId: string): Promise<VersionView> {
  const view = (await listVersions(target)).find((version) => version.buildId === buildId);
  if (!view) throw new UnknownVersionError(target, buildId);
  return view;
}

const refusal = (error: unknown) => {
  if (grpcCode(error) !== grpcStatus.FAILED_PRECONDITION) return error;
  return new Error(`the server refused: ${(error as Error & { details?: string }).details ?? String(error)}`);
};

/** Makes a version current: new runs go to it; long-lived runs continue as new onto it at their next task. */
export async function promoteVersion(
  target: DeploymentTarget,
  buildId: string,
  identity: string,
): Promise<{ deployment: string; current: string; previous: string | null }> {
  const version = await knownVersion(target, buildId);
  if (version.state === 'current')
    return { deployment: target.deploymentName, current: buildId, previous: buildId };
  try {
    const { previousDeploymentVersion } =
      await target.service.workflowService.setWorkerDeploymentCurrentVersion({
        namespace: target.namespace,
        deploymentName: target.deploymentName,
        buildId,
        identity,
      });
    return {
      deployment: target.deploymentName,
      current: buildId,
      previous: previousDeploymentVersion?.buildId ?? null,
    };
  } catch (error) {
    throw refusal(error);
  }
}

/** Sends `percent` of new runs to a version beside the current one; 0 stops ramping it. */
export async function rampVersion(
  target: DeploymentTarget,
  buildId: string,
  percent: number,
  identity: string,
): Promise<{ deployment: string; ramping: string | null; percent: number }> {
  if (!Number.isFinite(percent) || percent < 0 || percent > 100) {
    throw new Error(`--percent: must be a number from 0 to 100 (got ${percent})`);
  }
  const version = await knownVersion(target, buildId);
  if (version.state === 'current') throw new Error(`<build-id>: ${buildId} is the current version already`);
  try {
    await target.service.workflowService.setWorkerDeploymentRampingVersion({
      namespace: target.namespace,
      deploymentName: target.deploymentName,
      // An empty version with 0 % ends the ramp.
      ...(percent === 0 ? {} : { buildId }),
      percentage: percent,
      identity,
    });
    return { deployment: target.deploymentName, ramping: percent === 0 ? null : buildId, percent };
  } catch (error) {
    throw refusal(error);
  }
}

export interface Drainage {
  buildId: string;
  drained: boolean;
  /** Why its workers must stay up, when it is not drained. */
  reason: string;
  state: VersionState;
  openPinned: number;
  pollers: number;
}

/**
 * Whether a version's workers can stop: it takes no new runs (neither current nor ramping) and no open run is
 * pinned to it (bankflow pins every run; a long-lived one leaves by continuing as new onto the current
 * version). Auto-upgrade runs whose last task ran on it would not hold it: their next task goes to the
 * current version. Counted from visibility now, rather than the server's drainage status, which it refreshes
 * every few minutes.
 */
export async function versionDrainage(target: DeploymentTarget, buildId: string): Promise<Drainage> {
  const version = await knownVersion(target, buildId);
  const reason =
    version.state === 'current' || version.state === 'ramping'
      ? `it is the ${version.state} version: promote another first`
      : version.openPinned > 0
        ? `${version.openPinned} open run(s) pinned to it`
        : 'no new run goes to it and no open run is pinned to it';
  return {
    buildId,
    drained: version.state !== 'current' && version.state !== 'ramping' && version.openPinned === 0,
    reason,
    state: version.state,
    openPinned: version.openPinned,
    pollers: version.pollers,
  };
}

export interface VersionMove {
  buildId: string;
  /** The Temporal batch operation that signalled the runs (`temporal batch describe --job-id`). */
  jobId: string;
  /** Long-lived runs pinned to the version that were asked to move. */
  signalled: number;
  /**
   * Runs the batch could not signal (closed meanwhile, for one); `drained` tells what still holds the
   * version.
   */
  failed: number;
}

/** How long `moveLongLivedRuns` waits for its batch operation before saying it is still running. */
const moveWaitMs = 10 * 60_000;

/**
 * Asks every long-lived run still pinned to an old version for a workflow task (the version check signal), in
 * one Temporal batch operation: at that task each continues as new onto the current version, so the old
 * version drains once its short runs finish, rather than within the day each long-lived run takes a task
 * anyway. The short types' runs are left to finish where they started.
 */
export async function moveLongLivedRuns(
  target: DeploymentTarget,
  buildId: string,
  identity: string,
): Promise<VersionMove> {
  const version = await knownVersion(target, buildId);
  if (version.state === 'current' || version.state === 'ramping') {
    throw new Error(`<build-id>: ${buildId} is the ${version.state} version: its runs have nowhere to move`);
  }
  const jobId = `bankflow-move-${randomUUID()}`;
  const types = longLivedWorkflowTypes.map(literal).join(', ');
  await target.service.workflowService.startBatchOperation({
    namespace: target.namespace,
    jobId,
    reason: `bankflow deployments move: long-lived runs of ${buildId} continue as new onto the current version`,
    visibilityQuery:
      `TemporalWorkerDeploymentVersion = ${literal(`${target.deploymentName}:${buildId}`)} AND ` +
      `TemporalWorkflowVersioningBehavior = 'Pinned' AND ExecutionStatus = 'Running' AND WorkflowType IN (${types})`,
    signalOperation: { signal: versionCheckSignal.name, identity },
  });
  const deadline = Date.now() + moveWaitMs;
  for (;;) {
    const batch = await target.service.workflowService.describeBatchOperation({
      namespace: target.namespace,
      jobId,
    });
    const counts = {
      buildId,
      jobId,
      signalled: Number(batch.completeOperationCount ?? 0),
      failed: Number(batch.failureOperationCount ?? 0),
    };
    if (batch.state === BatchOperationState.BATCH_OPERATION_STATE_COMPLETED) return counts;
    if (batch.state === BatchOperationState.BATCH_OPERATION_STATE_FAILED) {
      throw new Error(`the batch operation ${jobId} failed after signalling ${counts.signalled} run(s)`);
    }
    if (Date.now() > deadline) {
      throw new Error(
        `the batch operation ${jobId} is still running after ${moveWaitMs / 60_000} minutes ` +
          `(${counts.signalled} run(s) signalled): follow it with \`temporal batch describe --job-id ${jobId}\``,
      );
    }
    await sleep(1_000);
  }
}

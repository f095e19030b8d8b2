import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { bundleWorkflowCode } from '@temporalio/worker';
import { failureConverterPath } from '../../src/temporal/data-converter.js';
import { workflowBuildId } from '../../src/temporal/worker-deployment.js';
import { workflowInterceptorModules, workflowsPath } from '../../src/workflow-bundle.js';
import { runsOf } from '../temporal/runs.js';

const { EventType, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;
const here = path.dirname(fileURLToPath(import.meta.url));

export { buildBMemoKey } from './build-b-payment.js';

/**
 * Build B of a rolling deploy: bankflow's workflows, whose payment makes one more decision
 * (devkit/versioning/build-b-payment.ts), so a build id of its own.
 */
export async function bundleBuildB(): Promise<{ code: string; buildId: string }> {
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    workflowInterceptorModules: [
      ...workflowInterceptorModules(false),
      path.join(here, `build-b-payment${path.extname(fileURLToPath(import.meta.url))}`),
    ],
    failureConverterPath,
  });
  return { code, buildId: workflowBuildId(code) };
}

/**
 * The build id that ran a workflow's run's last task (the latest run's, unless `runId` names one), or
 * undefined while the run has completed no workflow task. A run started by continue-as-new has versioning
 * info from its start: the version it inherited (the previous run's pinned one, or, continued with
 * AUTO_UPGRADE, the previous run's version as the source of the upgrade) until its first task completes and
 * names the build that ran it. The history is read first: once it holds a completed task, the run's
 * versioning info, written with that event, names the build that completed it.
 */
export async function buildOf(
  client: Client,
  workflowId: string,
  runId?: string,
): Promise<string | undefined> {
  const describe = (run: string | undefined) =>
    client.workflowService.describeWorkflowExecution({
      namespace: client.options.namespace,
      execution: { workflowId, runId: run },
    });
  const run = runId ?? (await describe(undefined)).workflowExecutionInfo?.execution?.runId ?? undefined;
  const { events } = await client.workflow.getHandle(workflowId, run).fetchHistory();
  if (!events?.some((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)) {
    return undefined;
  }
  const description = await describe(run);
  return description.workflowExecutionInfo?.versioningInfo?.deploymentVersion?.buildId ?? undefined;
}

export const memoOf = async (client: Client, workflowId: string) =>
  (await client.workflow.getHandle(workflowId).describe()).memo ?? {};

/** Workflow task failures over every run of a workflow, and how many of them were nondeterminism errors. */
export async function workflowTaskFailures(
  client: Client,
  workflowId: string,
): Promise<{ failures: number; nondeterminism: number }> {
  const counted = { failures: 0, nondeterminism: 0 };
  for (const run of await runsOf(client, workflowId)) {
    const { events } = await client.workflow.getHandle(workflowId, run.runId).fetchHistory();
    for (const event of events ?? []) {
      if (event.eventType !== EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) continue;
      counted.failures++;
      if (
        event.workflowTaskFailedEventAttributes?.cause ===
        WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR
      ) {
        counted.nondeterminism++;
      }
    }
  }
  return counted;
}

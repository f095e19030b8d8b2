import { WorkflowUpdateFailedError, type WorkflowHandle } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { runsOf } from '../../devkit/temporal/runs.js';
import type { ModelWorld } from './model-world.js';

/** How long the workflow gets to take in each move before the next one: a poll's worth of skipped time. */
export const settleMs = 2_000;

/** Thrown when a case breaks an invariant; fast-check prints it with the seed and the shrunk scenario. */
export class InvariantViolation extends Error {
  constructor(invariant: string, detail: string, scenario: string) {
    super(`invariant violated — ${invariant}: ${detail}\nscenario:\n${scenario}`);
    this.name = 'InvariantViolation';
  }
}

export async function isRunning(handle: WorkflowHandle): Promise<boolean> {
  return (await handle.describe()).status.name === 'RUNNING';
}

/** A signal to a workflow that may have ended meanwhile; one that ended is left alone. */
export async function signalIfRunning(
  handle: WorkflowHandle,
  send: (handle: WorkflowHandle) => Promise<void>,
): Promise<void> {
  try {
    await send(handle);
  } catch (error) {
    if (await isRunning(handle)) throw error;
  }
}

/**
 * Submits a merchant request as the update `send` starts, once the workflow accepted it, without waiting for
 * its answer: the scenario goes on while the workflow works on it. A refusal by the workflow's validator (the
 * window closed, another request in progress) is an answer too; a workflow that ended is left alone.
 */
export async function submitIfRunning(
  handle: WorkflowHandle,
  send: (handle: WorkflowHandle) => Promise<unknown>,
): Promise<void> {
  try {
    await send(handle);
  } catch (error) {
    if (error instanceof WorkflowUpdateFailedError) return;
    if (await isRunning(handle)) throw error;
  }
}

/**
 * The runs of a workflow with their history lengths, and how long it lived from its first start to its end.
 */
export async function lifeOf(world: ModelWorld, workflowId: string) {
  const { client } = world.stack;
  const runs = await runsOf(client, workflowId);
  const first = await client.workflow.getHandle(workflowId, runs[0]?.runId).describe();
  const last = await client.workflow.getHandle(workflowId).describe();
  return { runs, lifetimeMs: (last.closeTime?.getTime() ?? NaN) - first.startTime.getTime() };
}

/** The history-bound invariant, the same for both workflows. */
export function historyViolations(runs: { runId: string; events: number }[], bound: number): string[] {
  return runs
    .filter((run) => run.events > bound)
    .map((run) => `run ${run.runId} has ${run.events} history events, above the bound of ${bound}`);
}

/** An assertion the customer's authenticator made, or one the bank cannot verify. */
export const assertionFor = (kind: 'valid' | 'invalid', valid: string) => ({
  id: kind === 'valid' ? valid : 'forged-assertion',
  raw_id: 'cmF3',
  type: 'public-key' as const,
  response: {
    authenticator_data: 'YXV0aA',
    client_data_JSON: 'Y2xpZW50',
    signature: 'c2ln',
    user_handle: 'dXNlcg',
    attestation_object: 'YXR0',
  },
});

/**
 * Starts a workflow on the model world's task queue and answers its handle, which follows continue-as-new.
 */
export async function startOn<W extends Workflow>(
  world: ModelWorld,
  workflowType: string,
  workflowId: string,
  input: Parameters<W>[0],
): Promise<WorkflowHandle<W>> {
  const { client } = world.stack;
  await client.workflow.start(workflowType, { taskQueue: world.taskQueue, workflowId, args: [input] });
  return client.workflow.getHandle<W>(workflowId);
}

import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import proto, { type temporal } from '@temporalio/proto';

const { EventType, WorkflowTaskFailedCause } = proto.temporal.api.enums.v1;
type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What `bankflow support reset` did, or would do with `dryRun`. */
export interface NondeterminismReset {
  workflowId: string;
  runId: string;
  /** The first workflow task failed with a nondeterminism error, and its message. */
  failedEventId: number;
  failure: string;
  /** The last workflow task completed before it: the run goes on from there. */
  resetToEventId: number;
  /** Events after that point that the reset drops; their signals and updates are applied again. */
  droppedEvents: number;
  reason: string;
  dryRun: boolean;
  /** The run the reset started; absent on a dry run. */
  newRunId?: string;
}

export class NothingToResetError extends Error {
  constructor(workflowId: string, why: string) {
    super(`workflow ${workflowId} ${why}; nothing to reset`);
    this.name = 'NothingToResetError';
  }
}

const eventId = (event: HistoryEvent) => Number(event.eventId?.toString() ?? 0);

const isNondeterminismFailure = (event: HistoryEvent) =>
  event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED &&
  event.workflowTaskFailedEventAttributes?.cause ===
    WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR;

/**
 * Resets the latest run of `workflowId` to the last workflow task completed before its first workflow task
 * failed with a nondeterminism error, the state both the worker and a replay agree on. The server applies
 * again the signals and updates of the dropped events (its default), so no caller's message is lost; what the
 * run did after that point it does again, which bankflow's idempotent bank calls allow. Refuses a workflow
 * with no such failure.
 */
export async function resetAfterNondeterminism(
  client: Client,
  options: { workflowId: string; reason: string; dryRun?: boolean },
): Promise<NondeterminismReset> {
  const { workflowId } = options;
  const handle = client.workflow.getHandle(workflowId);
  const described = await handle.describe().catch((error: unknown) => {
    if (error instanceof WorkflowNotFoundError) throw new NothingToResetError(workflowId, 'does not exist');
    throw error;
  });
  const events = (await client.workflow.getHandle(workflowId, described.runId).fetchHistory()).events ?? [];
  const failedAt = events.findIndex(isNondeterminismFailure);
  if (failedAt < 0) {
    throw new NothingToResetError(workflowId, 'has no workflow task failed with a nondeterminism error');
  }
  const completed = events
    .slice(0, failedAt)
    .reverse()
    .find((event) => event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  if (!completed) {
    throw new NothingToResetError(
      workflowId,
      'failed its first workflow task, so there is no point to go back to',
    );
  }
  const failed = events[failedAt] as HistoryEvent;
  const reset: NondeterminismReset = {
    workflowId,
    runId: described.runId,
    failedEventId: eventId(failed),
    failure: failed.workflowTaskFailedEventAttributes?.failure?.message ?? '',
    resetToEventId: eventId(completed),
    droppedEvents: events.length - eventId(completed),
    reason: options.reason,
    dryRun: options.dryRun ?? false,
  };
  if (reset.dryRun) return reset;
  const request: temporal.api.workflowservice.v1.IResetWorkflowExecutionRequest = {
    namespace: client.options.namespace,
    workflowExecution: { workflowId, runId: described.runId },
    reason: reset.reason,
    workflowTaskFinishEventId: completed.eventId ?? null,
    requestId: randomUUID(),
  };
  const response: temporal.api.workflowservice.v1.IResetWorkflowExecutionResponse =
    await client.workflowService.resetWorkflowExecution(request);
  return { ...reset, newRunId: response.runId ?? '' };
}

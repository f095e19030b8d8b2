import type { Client, WorkflowHandle } from '@temporalio/client';
import proto from '@temporalio/proto';

const { EventType } = proto.temporal.api.enums.v1;

/** The first run of a workflow, found by walking back from the latest through the runs it continued. */
async function firstRunId(client: Client, workflowId: string): Promise<string> {
  let runId = (await client.workflow.getHandle(workflowId).describe()).runId;
  for (;;) {
    const events = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    const previous = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) return runId;
    runId = previous;
  }
}

/**
 * Every run of a workflow, first to last, with its history's length, whether it continued as new, and how
 * many memo and search-attribute upserts it made.
 */
export async function runsOf(client: Client, workflowId: string) {
  const runs: { runId: string; events: number; continuedAsNew: boolean; upserts: number }[] = [];
  let runId: string | undefined = await firstRunId(client, workflowId);
  while (runId) {
    const handle: WorkflowHandle = client.workflow.getHandle(workflowId, runId);
    const events = (await handle.fetchHistory()).events ?? [];
    const next: string | undefined =
      events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    const upserts = events.filter(
      (event) =>
        event.eventType === EventType.EVENT_TYPE_WORKFLOW_PROPERTIES_MODIFIED ||
        event.eventType === EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES,
    ).length;
    runs.push({ runId, events: events.length, continuedAsNew: next !== undefined, upserts });
    runId = next;
  }
  return runs;
}

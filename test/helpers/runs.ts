import type { Client, WorkflowHandle } from '@temporalio/client';

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

/** Every run of a workflow, first to last, with its history's length and whether it continued as new. */
export async function runsOf(client: Client, workflowId: string) {
  const runs: { runId: string; events: number; continuedAsNew: boolean }[] = [];
  let runId: string | undefined = await firstRunId(client, workflowId);
  while (runId) {
    const handle: WorkflowHandle = client.workflow.getHandle(workflowId, runId);
    const events = (await handle.fetchHistory()).events ?? [];
    const next: string | undefined =
      events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    runs.push({ runId, events: events.length, continuedAsNew: next !== undefined });
    runId = next;
  }
  return runs;
}

import type { Client } from '@temporalio/client';

/** The attempt number of every activity task a workflow's history shows as started. */
export async function activityAttempts(client: Client, workflowId: string): Promise<number[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  return (history.events ?? [])
    .map((event) => event.activityTaskStartedEventAttributes?.attempt)
    .filter((attempt): attempt is number => typeof attempt === 'number');
}

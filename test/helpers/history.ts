import type { Client } from '@temporalio/client';

/** The attempt number of every activity task a workflow's history shows as started. */
export async function activityAttempts(
  client: Client,
  workflowId: string,
  activityType?: string,
): Promise<number[]> {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = history.events ?? [];
  const typeOf = (scheduledEventId: unknown) =>
    events.find((event) => String(event.eventId) === String(scheduledEventId))
      ?.activityTaskScheduledEventAttributes?.activityType?.name;
  return events
    .filter(
      (event) =>
        !activityType || typeOf(event.activityTaskStartedEventAttributes?.scheduledEventId) === activityType,
    )
    .map((event) => event.activityTaskStartedEventAttributes?.attempt)
    .filter((attempt): attempt is number => typeof attempt === 'number');
}

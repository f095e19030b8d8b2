import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/** What one workflow run cost the engine, counted from its history. */
export interface RunCost {
  events: number;
  activities: number;
  signals: number;
  updates: number;
  workflowTasks: number;
  /**
   * Summed over the run: activities waiting for a worker, activities running, workflow tasks from scheduled
   * to done.
   */
  activityQueueMs: number;
  activityRunMs: number;
  workflowTaskMs: number;
}

const millisOf = (event: HistoryEvent | undefined) =>
  event?.eventTime
    ? Number(event.eventTime.seconds ?? 0) * 1000 + (event.eventTime.nanos ?? 0) / 1e6
    : Number.NaN;

function costOf(events: HistoryEvent[]): RunCost {
  const byId = new Map(events.map((event) => [Number(event.eventId), event]));
  const since = (event: HistoryEvent, earlierId: unknown) =>
    millisOf(event) - millisOf(byId.get(Number(earlierId)));
  const count = (has: (event: HistoryEvent) => unknown) => events.filter((event) => has(event)).length;
  let activityQueueMs = 0;
  let activityRunMs = 0;
  let workflowTaskMs = 0;
  for (const event of events) {
    const started = event.activityTaskStartedEventAttributes;
    if (started) activityQueueMs += since(event, started.scheduledEventId);
    const done = event.activityTaskCompletedEventAttributes ?? event.activityTaskFailedEventAttributes;
    if (done) activityRunMs += since(event, done.startedEventId);
    const task = event.workflowTaskCompletedEventAttributes;
    if (task) workflowTaskMs += since(event, task.scheduledEventId);
  }
  return {
    events: events.length,
    // A local activity leaves one marker and no scheduled event.
    activities: count(
      (event) =>
        event.activityTaskScheduledEventAttributes ??
        event.markerRecordedEventAttributes?.markerName === 'core_local_activity',
    ),
    signals: count((event) => event.workflowExecutionSignaledEventAttributes),
    updates: count((event) => event.workflowExecutionUpdateAcceptedEventAttributes),
    workflowTasks: count((event) => event.workflowTaskCompletedEventAttributes),
    activityQueueMs,
    activityRunMs,
    workflowTaskMs,
  };
}

/** The cost of every run of a workflow, first to last, following continue-as-new. */
export async function runCosts(client: Client, workflowId: string): Promise<RunCost[]> {
  const latest = await client.workflow.getHandle(workflowId).describe();
  let runId: string | undefined = latest.raw.workflowExecutionInfo?.firstRunId ?? latest.runId;
  const costs: RunCost[] = [];
  while (runId) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    const events: HistoryEvent[] = history.events ?? [];
    costs.push(costOf(events));
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return costs;
}

/** The engine-visible steps of one run: activities, signals and updates. */
export const stepsOf = (cost: RunCost) => cost.activities + cost.signals + cost.updates;

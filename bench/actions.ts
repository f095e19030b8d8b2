import type { temporal } from '@temporalio/proto';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * Temporal Cloud's billable actions as a workflow history shows them, one kind per row of the count (see
 * https://docs.temporal.io/cloud/actions):
 *
 * - `workflowStarted`: WorkflowExecutionStarted, however the run began: a client's start, update-with-start,
 *   signal-with-start, continue-as-new, or a child's start (whose parent counts `childStarted` as well: Cloud
 *   bills a child as two actions, the parent's intent and the child's execution).
 * - `signal`: WorkflowExecutionSignaled, whether a client or a workflow sent it; counted where it was
 *   received, so the sender's SignalExternalWorkflowExecutionInitiated is not counted again. A
 *   signal-with-start that started the run is one action in all: its signal (the run's second event, before
 *   the first workflow task is scheduled) is not counted beside the start.
 * - `update`: WorkflowExecutionUpdateAccepted (an update-with-start's update counts beside its start).
 * - `activity`: ActivityTaskScheduled, one per activity, and `activityRetry`: the attempts after the first,
 *   as the ActivityTaskStarted the server writes when the last attempt ends shows them (`attempt` 3 is two
 *   retries).
 * - `timer`: TimerStarted, the SDK's implicit timers (a `condition` with a timeout) among them.
 * - `marker`: MarkerRecorded, local activities' markers above all; Cloud counts the markers one workflow task
 *   records as one action, so they are counted by the workflow task that completed with them.
 * - `searchAttributes`: UpsertWorkflowSearchAttributes, one per upsert however many keys it sets, except one
 *   that sets only TemporalChangeVersion (patches), which Cloud does not bill.
 * - `properties`: WorkflowPropertiesModified (a memo upsert).
 * - `childStarted`: StartChildWorkflowExecutionInitiated, in the parent.
 * - `optionsUpdated`: WorkflowExecutionOptionsUpdated (a versioning override, a completion callback).
 *
 * Not in any history, so not in this count though billed: queries, activity heartbeats that reach the server,
 * workflow task heartbeats of long local activities, rejected updates, schedule starts, exports. So the
 * figure is "actions visible in history", a lower bound of the bill.
 */
export const actionKinds = [
  'workflowStarted',
  'signal',
  'update',
  'activity',
  'activityRetry',
  'timer',
  'marker',
  'searchAttributes',
  'properties',
  'childStarted',
  'optionsUpdated',
] as const;
export type ActionKind = (typeof actionKinds)[number];

/** One run's history, with its workflow type (which the events only name in the first one). */
export interface CountedRun {
  workflowType: string;
  events: HistoryEvent[];
}

/** Epoch milliseconds, both ends included. */
export interface TimeWindow {
  from: number;
  to: number;
}

export interface ActionCount {
  /**
   * Runs whose WorkflowExecutionStarted falls in the window: new executions and continue-as-new runs alike.
   */
  executions: number;
  /** Runs started in the window whose history holds no close event by its end. */
  stillOpen: number;
  actions: number;
  byKind: Record<ActionKind, number>;
  /** Activities run: scheduled ones plus local activities (one marker each). */
  activities: number;
  timers: number;
  byWorkflowType: Record<string, { executions: number; actions: number }>;
}

const changeVersionKey = 'TemporalChangeVersion';

export const eventMillis = (event: HistoryEvent): number =>
  event.eventTime
    ? Number(event.eventTime.seconds ?? 0) * 1000 + (event.eventTime.nanos ?? 0) / 1e6
    : Number.NaN;

const closes = (event: HistoryEvent) =>
  Boolean(
    event.workflowExecutionCompletedEventAttributes ??
    event.workflowExecutionFailedEventAttributes ??
    event.workflowExecutionCanceledEventAttributes ??
    event.workflowExecutionTerminatedEventAttributes ??
    event.workflowExecutionTimedOutEventAttributes ??
    event.workflowExecutionContinuedAsNewEventAttributes,
  );

/** Whether a signal event is the signal of the signal-with-start that began the run. */
const signalOfStart = (event: HistoryEvent, events: HistoryEvent[]) =>
  Number(event.eventId) === 2 && Boolean(events[0]?.workflowExecutionStartedEventAttributes);

/** The billable actions of one event, by kind (none for most events), markers aside. */
function actionsOf(event: HistoryEvent, events: HistoryEvent[]): Partial<Record<ActionKind, number>> {
  if (event.workflowExecutionStartedEventAttributes) return { workflowStarted: 1 };
  if (event.workflowExecutionSignaledEventAttributes)
    return signalOfStart(event, events) ? {} : { signal: 1 };
  if (event.workflowExecutionUpdateAcceptedEventAttributes) return { update: 1 };
  if (event.activityTaskScheduledEventAttributes) return { activity: 1 };
  const started = event.activityTaskStartedEventAttributes;
  if (started) return { activityRetry: Math.max(0, (started.attempt ?? 1) - 1) };
  if (event.timerStartedEventAttributes) return { timer: 1 };
  const upsert = event.upsertWorkflowSearchAttributesEventAttributes;
  if (upsert) {
    const keys = Object.keys(upsert.searchAttributes?.indexedFields ?? {});
    return keys.length > 0 && keys.every((key) => key === changeVersionKey) ? {} : { searchAttributes: 1 };
  }
  if (event.workflowPropertiesModifiedEventAttributes) return { properties: 1 };
  if (event.startChildWorkflowExecutionInitiatedEventAttributes) return { childStarted: 1 };
  if (event.workflowExecutionOptionsUpdatedEventAttributes) return { optionsUpdated: 1 };
  return {};
}

const emptyKinds = (): Record<ActionKind, number> =>
  Object.fromEntries(actionKinds.map((kind) => [kind, 0])) as Record<ActionKind, number>;

/**
 * The billable actions visible in these runs' histories whose events fall in the window (see `actionKinds`).
 */
export function countActions(runs: readonly CountedRun[], window: TimeWindow): ActionCount {
  const byKind = emptyKinds();
  const byWorkflowType: ActionCount['byWorkflowType'] = {};
  let executions = 0;
  let stillOpen = 0;
  let localActivities = 0;
  const inWindow = (event: HistoryEvent) => {
    const at = eventMillis(event);
    return at >= window.from && at <= window.to;
  };
  for (const run of runs) {
    const events = run.events.filter(inWindow);
    const type = (byWorkflowType[run.workflowType] ??= { executions: 0, actions: 0 });
    const startedHere = events.some((event) => event.workflowExecutionStartedEventAttributes);
    if (startedHere) {
      executions++;
      type.executions++;
      if (!events.some(closes)) stillOpen++;
    }
    const markerTasks = new Set<string>();
    for (const event of events) {
      const marker = event.markerRecordedEventAttributes;
      if (marker) {
        if (marker.markerName === 'core_local_activity') localActivities++;
        // A marker recorded without its task's id (none seen in practice) is a task of its own.
        const task = marker.workflowTaskCompletedEventId;
        markerTasks.add(task === undefined || task === null ? `event ${event.eventId}` : String(task));
        continue;
      }
      for (const [kind, count] of Object.entries(actionsOf(event, run.events))) {
        byKind[kind as ActionKind] += count;
        type.actions += count;
      }
    }
    byKind.marker += markerTasks.size;
    type.actions += markerTasks.size;
  }
  return {
    executions,
    stillOpen,
    actions: actionKinds.reduce((sum, kind) => sum + byKind[kind], 0),
    byKind,
    activities: byKind.activity + localActivities,
    timers: byKind.timer,
    byWorkflowType,
  };
}

/** Several windows' counts as one. */
export function sumCounts(counts: readonly ActionCount[]): ActionCount {
  const byKind = emptyKinds();
  const byWorkflowType: ActionCount['byWorkflowType'] = {};
  const total = { executions: 0, stillOpen: 0, actions: 0, activities: 0, timers: 0 };
  for (const count of counts) {
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += count[key];
    for (const kind of actionKinds) byKind[kind] += count.byKind[kind];
    for (const [type, of] of Object.entries(count.byWorkflowType)) {
      const sum = (byWorkflowType[type] ??= { executions: 0, actions: 0 });
      sum.executions += of.executions;
      sum.actions += of.actions;
    }
  }
  return { ...total, byKind, byWorkflowType };
}

/**
 * The workflow types the window started or charged, most actions first (runs only listed as open are left
 * out).
 */
export const touchedTypes = (count: ActionCount) =>
  Object.entries(count.byWorkflowType)
    .filter(([, of]) => of.executions > 0 || of.actions > 0)
    .sort(([, a], [, b]) => b.actions - a.actions);

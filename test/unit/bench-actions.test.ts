import type { temporal } from '@temporalio/proto';
import { countActions, touchedTypes, type CountedRun } from '../../bench/actions.js';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

/**
 * A history from its events' attributes, one second apart from t = 100 s (or as `nanos` shifts the first),
 * numbered from 1. Ids and times are plain numbers where the decoded proto has Longs: the count reads both
 * alike.
 */
function history(...attributes: object[]): HistoryEvent[] {
  return attributes.map(
    (fields, index) =>
      ({
        eventId: index + 1,
        eventTime: { seconds: 100 + index, nanos: 0 },
        ...fields,
      }) as unknown as HistoryEvent,
  );
}

const started = { workflowExecutionStartedEventAttributes: {} };
const taskScheduled = { workflowTaskScheduledEventAttributes: {} };
const taskCompleted = { workflowTaskCompletedEventAttributes: {} };
const signaled = { workflowExecutionSignaledEventAttributes: { signalName: 'webhook' } };
const completed = { workflowExecutionCompletedEventAttributes: {} };
const localActivity = (task: number) => ({
  markerRecordedEventAttributes: { markerName: 'core_local_activity', workflowTaskCompletedEventId: task },
});
const upsert = (...keys: string[]) => ({
  upsertWorkflowSearchAttributesEventAttributes: {
    searchAttributes: { indexedFields: Object.fromEntries(keys.map((key) => [key, {}])) },
  },
});

/** The whole of every history below: t = 0 to 1000 s. */
const always = { from: 0, to: 1_000_000 };

describe('billable actions counted from history', () => {
  it("counts a payment-like run's start, update, activities with their retries, timers, signals and upserts", () => {
    const run: CountedRun = {
      workflowType: 'biometricPaymentWorkflow',
      events: history(
        started, // 1: workflow started
        taskScheduled,
        { workflowTaskStartedEventAttributes: {} },
        taskCompleted, // 4
        { workflowExecutionUpdateAcceptedEventAttributes: {} }, // update
        { activityTaskScheduledEventAttributes: {} }, // activity
        { activityTaskStartedEventAttributes: { attempt: 3 } }, // two retries
        { activityTaskCompletedEventAttributes: {} },
        { activityTaskScheduledEventAttributes: {} }, // activity
        { activityTaskStartedEventAttributes: { attempt: 1 } },
        { timerStartedEventAttributes: {} }, // timer
        signaled, // signal
        { timerStartedEventAttributes: {} }, // timer
        { timerCanceledEventAttributes: {} },
        upsert('BankflowStatus', 'BankflowPhase'), // one upsert, whatever the keys
        upsert('TemporalChangeVersion'), // a patch's own upsert, not billed
        { workflowPropertiesModifiedEventAttributes: {} }, // memo
        { workflowExecutionUpdateCompletedEventAttributes: {} },
        { signalExternalWorkflowExecutionInitiatedEventAttributes: {} }, // counted at the receiver
        completed,
      ),
    };
    const count = countActions([run], always);
    expect(count.byKind).toEqual({
      workflowStarted: 1,
      signal: 1,
      update: 1,
      activity: 2,
      activityRetry: 2,
      timer: 2,
      marker: 0,
      searchAttributes: 1,
      properties: 1,
      childStarted: 0,
      optionsUpdated: 0,
    });
    expect(count.actions).toBe(11);
    expect(count.executions).toBe(1);
    expect(count.stillOpen).toBe(0);
    expect(count.activities).toBe(2);
    expect(count.timers).toBe(2);
    expect(count.byWorkflowType).toEqual({ biometricPaymentWorkflow: { executions: 1, actions: 11 } });
  });

  it('counts the local activities of one workflow task as one action, and each one as an activity', () => {
    const run: CountedRun = {
      workflowType: 'syncWorkflow',
      events: history(
        started,
        taskScheduled,
        taskCompleted, // 3
        localActivity(3),
        localActivity(3),
        localActivity(3),
        taskScheduled,
        taskCompleted, // 8
        localActivity(8),
        { markerRecordedEventAttributes: { markerName: 'core_patch', workflowTaskCompletedEventId: 8 } },
      ),
    };
    const count = countActions([run], always);
    expect(count.byKind.marker).toBe(2);
    expect(count.activities).toBe(4);
    expect(count.actions).toBe(3);
    expect(count.stillOpen).toBe(1);
  });

  it('counts a signal-with-start that started its run as one action, a later signal as another', () => {
    const holder: CountedRun = {
      workflowType: 'cashInHolderWorkflow',
      events: history(started, signaled, taskScheduled, taskCompleted, signaled),
    };
    const count = countActions([holder], always);
    expect(count.byKind.workflowStarted).toBe(1);
    expect(count.byKind.signal).toBe(1);
    expect(count.actions).toBe(2);
  });

  it("counts a child as the parent's intent and the child's own start, and continue-as-new runs as executions", () => {
    const parent: CountedRun = {
      workflowType: 'parent',
      events: history(
        started,
        taskScheduled,
        taskCompleted,
        { startChildWorkflowExecutionInitiatedEventAttributes: {} },
        { childWorkflowExecutionStartedEventAttributes: {} },
        { workflowExecutionContinuedAsNewEventAttributes: {} },
      ),
    };
    const child: CountedRun = { workflowType: 'child', events: history(started, taskScheduled) };
    const next: CountedRun = {
      workflowType: 'parent',
      events: history(started, taskScheduled, taskCompleted, {
        workflowExecutionOptionsUpdatedEventAttributes: {},
      }),
    };
    const count = countActions([parent, child, next], always);
    expect(count.executions).toBe(3);
    expect(count.stillOpen).toBe(2);
    expect(count.byKind.workflowStarted).toBe(3);
    expect(count.byKind.childStarted).toBe(1);
    expect(count.byKind.optionsUpdated).toBe(1);
    expect(count.actions).toBe(5);
    expect(count.byWorkflowType).toEqual({
      parent: { executions: 2, actions: 4 },
      child: { executions: 1, actions: 1 },
    });
  });

  it('counts only the events in the window: a run started before it is touched, not started, in it', () => {
    // Events at t = 100, 101, ... 106 s; the window holds 103 to 105 s.
    const older: CountedRun = {
      workflowType: 'enrollmentWorkflow',
      events: history(
        started, // 100
        taskScheduled,
        taskCompleted,
        signaled, // 103: in
        { timerStartedEventAttributes: {} }, // 104: in
        localActivity(3), // 105: in, a marker of a task before the window
        { activityTaskScheduledEventAttributes: {} }, // 106: out
      ),
    };
    const count = countActions([older], { from: 103_000, to: 105_000 });
    expect(count.executions).toBe(0);
    expect(count.stillOpen).toBe(0);
    expect(count.byKind).toMatchObject({ workflowStarted: 0, signal: 1, timer: 1, marker: 1, activity: 0 });
    expect(count.actions).toBe(3);
    expect(count.byWorkflowType).toEqual({ enrollmentWorkflow: { executions: 0, actions: 3 } });
  });

  it('lists the workflow types a window started or charged, most actions first, leaving out those it did not touch', () => {
    const idle: CountedRun = { workflowType: 'idle', events: history(started) };
    const holder: CountedRun = {
      workflowType: 'cashInHolderWorkflow',
      events: history(started, taskScheduled, signaled, { timerStartedEventAttributes: {} }),
    };
    const payment: CountedRun = {
      workflowType: 'biometricPaymentWorkflow',
      events: history(started, taskScheduled, signaled, signaled, { timerStartedEventAttributes: {} }),
    };
    const count = countActions([idle, holder, payment], { from: 101_000, to: 1_000_000 });
    expect(touchedTypes(count)).toEqual([
      ['biometricPaymentWorkflow', { executions: 0, actions: 3 }],
      ['cashInHolderWorkflow', { executions: 0, actions: 2 }],
    ]);
  });

  it('adds nothing for a run the window did not touch, and reads nanoseconds of event times', () => {
    const events = history({ ...started, eventTime: { seconds: 100, nanos: 999_000_000 } }, taskScheduled);
    const count = countActions([{ workflowType: 'late', events }], { from: 0, to: 100_500 });
    expect(count.actions).toBe(0);
    expect(count.executions).toBe(0);
    expect(countActions([{ workflowType: 'late', events }], { from: 0, to: 101_000 }).executions).toBe(1);
  });
});

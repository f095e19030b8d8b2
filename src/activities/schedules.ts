import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { previousMatchingTime, scheduleMatchingTimes } from '../schedules/matching-times.js';
import {
  maxScheduledTimesPerWindow,
  windowClaimSignal,
  windowCursorWorkflowId,
  windowCursorWorkflowType,
  type WindowClaim,
} from '../contract/window-cursor.js';
import { searchAttributes } from '../contract/search-attributes.js';

/** gRPC status NOT_FOUND, as both the grpc-js and the native connection report it. */
const grpcNotFound = 5;
const isNotFound = (error: unknown) => (error as { code?: unknown } | null)?.code === grpcNotFound;

/**
 * What a scheduled workflow asks of Temporal itself, through the worker's own connection; `taskQueue` is the
 * workflows' (these activities run on the internal queue beside it).
 */
export function createScheduleActivities(temporal: Client, taskQueue: string) {
  return {
    /**
     * The schedule's previous scheduled time before `scheduledTime`: where the first window ever starts, and
     * where a run whose time is already covered starts its interval again (contract/schedule-coverage.ts).
     */
    async previousScheduledTime(scheduleId: string, scheduledTime: string): Promise<string> {
      let previous: Date | undefined;
      try {
        previous = await previousMatchingTime(temporal, scheduleId, new Date(scheduledTime));
      } catch (error) {
        if (!isNotFound(error)) throw error;
        throw ApplicationFailure.create({
          type: 'ScheduleNotFound',
          nonRetryable: true,
          message: `schedule ${scheduleId} no longer exists, so the window of this run is unknown; run the job with an explicit {from, to}`,
        });
      }
      if (!previous) {
        throw ApplicationFailure.create({
          type: 'NoPreviousScheduledTime',
          nonRetryable: true,
          message: `schedule ${scheduleId} matches no time in the year before ${scheduledTime}; run the job with an explicit {from, to}`,
        });
      }
      return previous.toISOString();
    },

    /** Sends a run's claim to its schedule's window cursor, starting the cursor if it does not run yet (runs started on 1.0). */
    async claimJobWindow(claim: WindowClaim): Promise<void> {
      await temporal.workflow.signalWithStart(windowCursorWorkflowType, {
        workflowId: windowCursorWorkflowId(claim.scheduleId),
        taskQueue,
        args: [],
        signal: windowClaimSignal,
        signalArgs: [claim],
        typedSearchAttributes: [{ key: searchAttributes.kind, value: 'window-cursor' }],
        staticSummary: `Where the time covered by schedule ${claim.scheduleId} ends`,
      });
    },

    /** Whether a scheduled run (the latest of its chain) is still running. */
    async jobRunIsOpen(workflowId: string): Promise<boolean> {
      try {
        return (await temporal.workflow.getHandle(workflowId).describe()).status.name === 'RUNNING';
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) return false;
        throw error;
      }
    },

    /**
     * Where a window catching up from `from` to `to` ends: at the schedule's `maxScheduledTimesPerWindow`-th time
     * after `from` when more times than that fall in it, at `to` otherwise (and when the schedule is gone).
     */
    async catchUpWindowEnd(scheduleId: string, from: string, to: string): Promise<string> {
      let times: Date[];
      try {
        times = await scheduleMatchingTimes(temporal, scheduleId, new Date(from), new Date(to));
      } catch (error) {
        if (isNotFound(error)) return to;
        throw error;
      }
      const end = times[maxScheduledTimesPerWindow - 1];
      return end && times.length > maxScheduledTimesPerWindow ? end.toISOString() : to;
    },
  };
}

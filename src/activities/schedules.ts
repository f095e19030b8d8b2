import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { previousMatchingTime, scheduleMatchingTimes } from '../schedules/matching-times.js';
import { maxScheduledTimesPerWindow } from '../contract/schedule-coverage.js';

/** gRPC status NOT_FOUND, as both the grpc-js and the native connection report it. */
const grpcNotFound = 5;
const isNotFound = (error: unknown) => (error as { code?: unknown } | null)?.code === grpcNotFound;

/** What a scheduled workflow asks of Temporal itself, through the worker's own connection. */
export function createScheduleActivities(temporal: Client) {
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

    /**
     * Where a window catching up from `from` to `to` ends: at the schedule's `maxScheduledTimesPerWindow`-th
     * time after `from` when more times than that fall in it, at `to` otherwise (and when the schedule is
     * gone).
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

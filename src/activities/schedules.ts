import type { Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { previousMatchingTime } from '../schedules/matching-times.js';

/** gRPC status NOT_FOUND, as both the grpc-js and the native connection report it. */
const grpcNotFound = 5;
const isNotFound = (error: unknown) => (error as { code?: unknown } | null)?.code === grpcNotFound;

/** What a scheduled workflow asks of Temporal itself, through the worker's own connection. */
export function createScheduleActivities(temporal: Client) {
  return {
    /** The schedule's previous scheduled time before `scheduledTime`: where a scheduled run's window starts. */
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
  };
}

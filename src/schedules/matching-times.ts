import type { Client } from '@temporalio/client';
import { msToTs, tsToDate } from '@temporalio/common/lib/time.js';

/**
 * The times a schedule's spec matches in (from, to], computed by the Temporal server from the schedule as it
 * is now. The server answers at most 1000 times per call.
 */
export async function scheduleMatchingTimes(
  client: Client,
  scheduleId: string,
  from: Date,
  to: Date,
): Promise<Date[]> {
  const response = await client.workflowService.listScheduleMatchingTimes({
    namespace: client.options.namespace,
    scheduleId,
    startTime: msToTs(from.getTime()),
    endTime: msToTs(to.getTime()),
  });
  return (response.startTime ?? []).map((time) => tsToDate(time));
}

/**
 * Short lookbacks first, each at most 60 times the one before, so no answer reaches the server's cap (which
 * would cut off the latest times: a schedule every 2 s looked back an hour got a time 27 minutes old); a
 * yearly one is still found.
 */
const lookbacksMs = [10_000, 60_000, 3_600_000, 86_400_000, 32 * 86_400_000, 367 * 86_400_000];

/** The latest time before `before` that the schedule's spec matches, or undefined when none in a year. */
export async function previousMatchingTime(
  client: Client,
  scheduleId: string,
  before: Date,
): Promise<Date | undefined> {
  for (const lookback of lookbacksMs) {
    const times = await scheduleMatchingTimes(
      client,
      scheduleId,
      new Date(before.getTime() - lookback),
      before,
    );
    const earlier = times.filter((time) => time.getTime() < before.getTime());
    const latest = earlier[earlier.length - 1];
    if (latest) return latest;
  }
  return undefined;
}

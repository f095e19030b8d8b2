import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { ApplicationFailure, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { internalActivities, temporalCallOptions } from '../activity-options.js';
import { failureTypes } from '../../contract/journeys.js';
import type { JobWindow, JobWindowInput } from '../../contract/jobs.js';
import {
  capWindow,
  coveredAfter,
  coveredUntilOf,
  scheduledWindow,
} from '../../contract/schedule-coverage.js';

/**
 * Set by Temporal on every workflow a Schedule starts: the action's nominal time (before jitter, whole
 * seconds) and the schedule's id.
 */
const scheduledStartTime = defineSearchAttributeKey(
  'TemporalScheduledStartTime',
  SearchAttributeType.DATETIME,
);
const scheduledById = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);

const { previousScheduledTime, catchUpWindowEnd } =
  internalActivities<Pick<Activities, 'previousScheduledTime' | 'catchUpWindowEnd'>>(temporalCallOptions);

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function invalid(field: string, reason: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${field}: ${reason}`, failureTypes.invalidJobWindow);
}

function checkInstant(field: keyof JobWindowInput, value: string): void {
  if (!isoDateTime.test(value) || Number.isNaN(Date.parse(value))) {
    throw invalid(field, 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T09:00:00Z');
  }
}

function explicitWindow(input: JobWindowInput): JobWindow {
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value === undefined) throw invalid(field, 'is required when the other bound is given');
    checkInstant(field, value);
  }
  const from = new Date(input.from as string);
  const to = new Date(input.to as string);
  if (from.getTime() >= to.getTime()) throw invalid('to', 'must be later than from');
  return { from: from.toISOString(), to: to.toISOString() };
}

interface ScheduledRun {
  scheduleId: string;
  scheduledAt: string;
}

/**
 * The schedule and nominal time of a run a Schedule started (kept across continue-as-new); undefined
 * otherwise.
 */
function scheduledRun(): ScheduledRun | undefined {
  const attributes = workflowInfo().typedSearchAttributes;
  const scheduledAt = attributes.get(scheduledStartTime);
  const scheduleId = attributes.get(scheduledById);
  return scheduledAt && scheduleId ? { scheduleId, scheduledAt: scheduledAt.toISOString() } : undefined;
}

/** A job's window and, for a run a Schedule started, where its schedule's covered time ended before it. */
export interface ResolvedWindow {
  window: JobWindow;
  /** Absent on a run that is not scheduled, and on a scheduled run given an explicit window alone. */
  coveredUntil?: string;
}

/**
 * The window from where the schedule's covered time ends: as carried by the run this one continues, else as
 * the schedule's last completed run answered it (`workflowInfo().lastResult`, which Temporal gives every run
 * a Schedule starts, backfills included). A lag of more than `maxScheduledTimesPerWindow` scheduled times is
 * covered one capped window after another.
 */
async function windowFromCoverage(run: ScheduledRun, carried: string | undefined): Promise<ResolvedWindow> {
  const coveredUntil = carried ?? coveredUntilOf(workflowInfo().lastResult);
  const previous = await previousScheduledTime(run.scheduleId, run.scheduledAt);
  let covered = scheduledWindow({ coveredUntil, scheduledAt: run.scheduledAt, previous });
  if (covered.catchingUp) {
    const { from, to } = covered.window;
    covered = capWindow(covered, await catchUpWindowEnd(run.scheduleId, from, to));
  }
  return { window: covered.window, coveredUntil: covered.coveredUntil };
}

/**
 * The window a scheduled job covers. An explicit `{from, to}` wins. A run a Schedule started without input
 * covers the time from where the schedule's covered time ends (the last completed run's `coveredUntil`) to
 * its own scheduled time: a run skipped by the overlap policy, missed while workers were down, or failed
 * leaves its time to the next run, since only a completed run moves the covered time. The first run ever
 * starts at the schedule's previous time (asked of the Temporal server, which evaluates the spec exactly as
 * it fires it); a run whose time is already covered (a backfill, a re-run) covers its scheduled interval
 * again and moves nothing. One run at a time is what makes this exact: the schedules skip overlapping runs,
 * and backfills and triggers queue (src/schedules). `completeJobWindow` says where the covered time ends
 * after the run, and whether another window follows.
 */
export async function resolveJobWindow(input: JobWindowInput | undefined): Promise<ResolvedWindow> {
  const run = scheduledRun();
  if (input?.coveredUntil !== undefined) checkInstant('coveredUntil', input.coveredUntil);
  if (input?.from !== undefined || input?.to !== undefined) {
    const window = explicitWindow(input);
    return run && input.coveredUntil !== undefined
      ? { window, coveredUntil: input.coveredUntil }
      : { window };
  }
  if (!run) {
    throw invalid('input', 'from and to are required when the workflow is not started by a Schedule');
  }
  return windowFromCoverage(run, input?.coveredUntil);
}

/** How a scheduled run ends once its window is done. */
export interface WindowCompletion {
  /**
   * Where the schedule's covered time ends now: the job returns it for the next run (absent: not scheduled).
   */
  coveredUntil?: string;
  /** The input of the next window when the run was catching up: the job continues as new with it. */
  next?: JobWindowInput;
}

/**
 * Call once the job's work is done. A run whose window ends before its scheduled time was catching up: it
 * continues as new with `next`, carrying where the covered time ends, to cover the next window.
 */
export function completeJobWindow({ window, coveredUntil }: ResolvedWindow): WindowCompletion {
  const run = scheduledRun();
  if (!run || coveredUntil === undefined) return {};
  const after = coveredAfter(coveredUntil, window);
  return Date.parse(after) < Date.parse(run.scheduledAt)
    ? { coveredUntil: after, next: { coveredUntil: after } }
    : { coveredUntil: after };
}

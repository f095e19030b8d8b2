import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import {
  ApplicationFailure,
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { temporalCallOptions } from '../activity-options.js';
import { failureTypes } from '../../contract/failure-types.js';
import type { JobWindow, JobWindowInput } from '../../contract/jobs.js';
import {
  windowCursorWorkflowId,
  windowDoneSignal,
  windowGrantSignal,
  type WindowClaim,
  type WindowGrant,
} from '../../contract/window-cursor.js';

/**
 * Set by Temporal on every workflow a Schedule starts: the action's nominal time (before jitter, whole seconds)
 * and the schedule's id.
 */
const scheduledStartTime = defineSearchAttributeKey(
  'TemporalScheduledStartTime',
  SearchAttributeType.DATETIME,
);
const scheduledById = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);

const { previousScheduledTime, claimJobWindow } =
  proxyActivities<Pick<Activities, 'previousScheduledTime' | 'claimJobWindow'>>(temporalCallOptions);

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function invalid(field: string, reason: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${field}: ${reason}`, failureTypes.invalidJobWindow);
}

function explicitWindow(input: JobWindowInput): JobWindow {
  for (const field of ['from', 'to'] as const) {
    const value = input[field];
    if (value === undefined) throw invalid(field, 'is required when the other bound is given');
    if (!isoDateTime.test(value) || Number.isNaN(Date.parse(value))) {
      throw invalid(field, 'must be an ISO 8601 date-time with a time zone, e.g. 2026-01-31T09:00:00Z');
    }
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

/** The schedule and nominal time of a run a Schedule started (kept across continue-as-new); undefined otherwise. */
function scheduledRun(): ScheduledRun | undefined {
  const attributes = workflowInfo().typedSearchAttributes;
  const scheduledAt = attributes.get(scheduledStartTime);
  const scheduleId = attributes.get(scheduledById);
  return scheduledAt && scheduleId ? { scheduleId, scheduledAt: scheduledAt.toISOString() } : undefined;
}

/** Asks the schedule's window cursor (window-cursor.ts) for this run's window and waits for its answer. */
async function claimWindow(claim: WindowClaim): Promise<JobWindow> {
  let grant: WindowGrant | undefined;
  setHandler(windowGrantSignal, (answer) => {
    if (answer.claimId === claim.claimId) grant ??= answer;
  });
  await claimJobWindow(claim);
  await condition(() => grant !== undefined);
  return (grant as WindowGrant).window;
}

/**
 * The window a scheduled job covers. An explicit `{from, to}` wins. A run a Schedule started without input covers
 * the time from where the schedule's last completed window ended to its own scheduled time, as the schedule's
 * window cursor grants it: a run skipped by the overlap policy, missed while workers were down, or failed leaves
 * its time to the next run. The first run ever starts at the schedule's previous time (asked of the Temporal
 * server, which evaluates the spec exactly as it fires it); a run whose time is already covered (a backfill, a
 * re-run) covers its scheduled interval again and moves nothing. A long lag is covered in windows of at most
 * `maxScheduledTimesPerWindow` scheduled times; `completeJobWindow` says when another one follows.
 */
export async function resolveJobWindow(input: JobWindowInput | undefined): Promise<JobWindow> {
  if (input?.from !== undefined || input?.to !== undefined) return explicitWindow(input);
  const run = scheduledRun();
  if (!run) {
    throw invalid('input', 'from and to are required when the workflow is not started by a Schedule');
  }
  const previous = await previousScheduledTime(run.scheduleId, run.scheduledAt);
  // Named after the chain and the run it continues, both read from history: the same on replay, and on a reset run.
  const { workflowId, firstExecutionRunId, continuedFromExecutionRunId } = workflowInfo();
  const claimId = `${firstExecutionRunId}/${continuedFromExecutionRunId ?? 'first'}`;
  return claimWindow({ claimId, workflowId, ...run, previous });
}

/**
 * Tells the schedule's window cursor this run completed its window, so the next window starts where this one
 * ends; call it once the job's work is done. Answers true when the run's scheduled time is still ahead (it was
 * catching up): the run then continues as new, with no window, to claim the next one.
 */
export async function completeJobWindow(window: JobWindow): Promise<boolean> {
  const run = scheduledRun();
  if (!run) return false;
  try {
    await getExternalWorkflowHandle(windowCursorWorkflowId(run.scheduleId)).signal(windowDoneSignal, {
      workflowId: workflowInfo().workflowId,
      window,
    });
  } catch (error) {
    if (isCancellation(error)) throw error;
    // The cursor is gone (an operator terminated it): the work is done, and the next claim starts a new cursor.
    log.warn('no window cursor to tell of the completed window', { window, error: String(error) });
    return false;
  }
  return Date.parse(window.to) < Date.parse(run.scheduledAt);
}

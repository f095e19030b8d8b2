import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { ApplicationFailure, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';

/**
 * Set by Temporal on every workflow a Schedule starts: the action's nominal time (before jitter, whole seconds)
 * and the schedule's id.
 */
const scheduledStartTime = defineSearchAttributeKey(
  'TemporalScheduledStartTime',
  SearchAttributeType.DATETIME,
);
const scheduledById = defineSearchAttributeKey('TemporalScheduledById', SearchAttributeType.KEYWORD);

/** A scheduled job's input: an explicit window, or nothing when a Schedule starts it. */
export interface JobWindowInput {
  from?: string;
  to?: string;
}

/** The half-open window [from, to) a job covers, as UTC ISO 8601 instants. */
export interface JobWindow {
  from: string;
  to: string;
}

const { previousScheduledTime } = proxyActivities<Pick<Activities, 'previousScheduledTime'>>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

const isoDateTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

function invalid(field: string, reason: string): ApplicationFailure {
  return ApplicationFailure.nonRetryable(`${field}: ${reason}`, 'InvalidJobWindow');
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

/**
 * The window a scheduled job covers. An explicit `{from, to}` wins; a run started by a Schedule without input
 * covers the time since the schedule's previous scheduled time: it ends at this run's scheduled time and starts
 * at the latest earlier time the schedule's spec matches (asked of the Temporal server, which evaluates the
 * spec — cron, time zone, calendars — exactly as it fires it). Consecutive scheduled runs therefore tile the
 * timeline without gaps or overlaps; a manual trigger covers the time since the last scheduled time.
 */
export async function resolveJobWindow(input: JobWindowInput | undefined): Promise<JobWindow> {
  if (input?.from !== undefined || input?.to !== undefined) return explicitWindow(input);
  const attributes = workflowInfo().typedSearchAttributes;
  const scheduledAt = attributes.get(scheduledStartTime);
  const scheduleId = attributes.get(scheduledById);
  if (!scheduledAt || !scheduleId) {
    throw invalid('input', 'from and to are required when the workflow is not started by a Schedule');
  }
  const to = scheduledAt.toISOString();
  return { from: await previousScheduledTime(scheduleId, to), to };
}

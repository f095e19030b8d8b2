import {
  ScheduleOverlapPolicy,
  WorkflowNotFoundError,
  type Client,
  type ScheduleDescription,
} from '@temporalio/client';
import { coveredUntilOf } from '../contract/schedule-coverage.js';
import { declarationFingerprint, declarationMemoKey, describeIfExists } from './apply.js';
import { scheduledWorkflowId, type ScheduleDeclaration } from './declarations.js';
import { scheduleMatchingTimes } from './matching-times.js';

/** A declared schedule as it stands on the server. */
export interface ScheduleView {
  job: string;
  scheduleId: string;
  workflowType: string;
  cron: string;
  timeZone: string;
  /** False until `schedules apply` created it. */
  exists: boolean;
  /** Whether the server holds this declaration as it is now (false: run `schedules apply`). */
  upToDate: boolean;
  paused: boolean;
  note: string | null;
  nextRuns: string[];
  recentRuns: { scheduledAt: string; workflowId: string }[];
  running: string[];
  skippedOverlap: number;
  missedCatchupWindow: number;
  /**
   * Where the last completed window of the job ended: the next scheduled run starts there. Null before any.
   */
  coveredUntil: string | null;
}

function view(
  declaration: ScheduleDeclaration,
  taskQueue: string,
  described: ScheduleDescription | undefined,
  coveredUntil: string | undefined,
): ScheduleView {
  return {
    job: declaration.job,
    scheduleId: declaration.scheduleId,
    workflowType: declaration.workflowType,
    cron: declaration.cron,
    timeZone: declaration.timeZone,
    exists: described !== undefined,
    upToDate: described?.action.memo?.[declarationMemoKey] === declarationFingerprint(declaration, taskQueue),
    paused: described?.state.paused ?? false,
    note: described?.state.note || null,
    nextRuns: (described?.info.nextActionTimes ?? []).slice(0, 3).map((at) => at.toISOString()),
    recentRuns: (described?.info.recentActions ?? []).map((run) => ({
      scheduledAt: run.scheduledAt.toISOString(),
      workflowId: run.action.workflow.workflowId,
    })),
    running: (described?.info.runningActions ?? []).map((run) => run.workflow.workflowId),
    skippedOverlap: described?.info.numActionsSkippedOverlap ?? 0,
    missedCatchupWindow: described?.info.numActionsMissedCatchupWindow ?? 0,
    coveredUntil: coveredUntil ?? null,
  };
}

/**
 * Where the job's covered time ends, as its latest completed recent run answered it (the result Temporal
 * hands the schedule's next run); undefined when none of the recent runs completed.
 */
async function coveredUntilOfRecentRuns(
  client: Client,
  described: ScheduleDescription | undefined,
): Promise<string | undefined> {
  const recent = [...(described?.info.recentActions ?? [])].reverse();
  for (const run of recent) {
    const handle = client.workflow.getHandle(run.action.workflow.workflowId);
    try {
      if ((await handle.describe()).status.name === 'COMPLETED') return coveredUntilOf(await handle.result());
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  return undefined;
}

export async function describeDeclared(
  client: Client,
  taskQueue: string,
  declaration: ScheduleDeclaration,
): Promise<ScheduleView> {
  const described = await describeIfExists(client.schedule.getHandle(declaration.scheduleId));
  return view(declaration, taskQueue, described, await coveredUntilOfRecentRuns(client, described));
}

async function describeExisting(client: Client, declaration: ScheduleDeclaration) {
  const described = await describeIfExists(client.schedule.getHandle(declaration.scheduleId));
  if (!described) {
    throw new Error(
      `schedule ${declaration.scheduleId} does not exist yet; run \`bankflow schedules apply\``,
    );
  }
  return described;
}

export interface TriggeredRun {
  scheduleId: string;
  workflowId: string;
  scheduledAt: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the job now, whatever its cadence and even while paused (after the job's running run, if one runs),
 * and answers the run it started: its window is the time since the job's last completed window.
 */
export async function triggerDeclared(
  client: Client,
  declaration: ScheduleDeclaration,
  timeoutMs = 15_000,
): Promise<TriggeredRun> {
  const before = await describeExisting(client, declaration);
  const known = new Set(before.info.recentActions.map((run) => run.action.workflow.workflowId));
  const handle = client.schedule.getHandle(declaration.scheduleId);
  // Queued behind a running run, never beside it: each run's window starts where the one before it ended.
  await handle.trigger(ScheduleOverlapPolicy.BUFFER_ALL);
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const started = (await handle.describe()).info.recentActions
      .filter((run) => !known.has(run.action.workflow.workflowId))
      .sort((a, b) => b.takenAt.getTime() - a.takenAt.getTime())[0];
    if (started) {
      return {
        scheduleId: declaration.scheduleId,
        workflowId: started.action.workflow.workflowId,
        scheduledAt: started.scheduledAt.toISOString(),
      };
    }
    await sleep(200);
  }
  throw new Error(
    `schedule ${declaration.scheduleId} accepted the trigger but started no run within ${timeoutMs} ms; the run is queued and starts once the job's running run ends`,
  );
}

export interface Backfill {
  scheduleId: string;
  runs: { scheduledAt: string; workflowId: string }[];
}

/** Temporal answers at most this many matching times at once; a longer backfill is split by the operator. */
const maxBackfillRuns = 1000;

/**
 * Runs the job for every time its schedule matches in [from, to], one after the other (BUFFER_ALL); answers
 * the runs it queued and their workflow ids. A time the job already covered is run again over its scheduled
 * interval; a later one covers the time since the last completed window, like any scheduled run.
 */
export async function backfillDeclared(
  client: Client,
  declaration: ScheduleDeclaration,
  from: Date,
  to: Date,
): Promise<Backfill> {
  await describeExisting(client, declaration);
  // The server's range is (start, end]; one second earlier makes `from` itself count.
  const times = await scheduleMatchingTimes(
    client,
    declaration.scheduleId,
    new Date(from.getTime() - 1000),
    to,
  );
  if (times.length >= maxBackfillRuns) {
    throw new Error(
      `the backfill would start ${maxBackfillRuns} runs or more; split [from, to] into shorter ranges`,
    );
  }
  if (times.length > 0) {
    await client.schedule
      .getHandle(declaration.scheduleId)
      .backfill({ start: from, end: to, overlap: ScheduleOverlapPolicy.BUFFER_ALL });
  }
  return {
    scheduleId: declaration.scheduleId,
    runs: times.map((at) => ({
      scheduledAt: at.toISOString(),
      workflowId: scheduledWorkflowId(declaration.scheduleId, at),
    })),
  };
}

export async function setPaused(
  client: Client,
  taskQueue: string,
  declaration: ScheduleDeclaration,
  paused: boolean,
  note: string,
): Promise<ScheduleView> {
  await describeExisting(client, declaration);
  const handle = client.schedule.getHandle(declaration.scheduleId);
  if (paused) await handle.pause(note);
  else await handle.unpause(note);
  return describeDeclared(client, taskQueue, declaration);
}

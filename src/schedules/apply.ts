import { createHash } from 'node:crypto';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleHandle,
  type ScheduleUpdateOptions,
} from '@temporalio/client';
import { searchAttributes } from '../contract/temporal.js';
import type { ScheduleDeclaration } from './declarations.js';

export type ApplyResult = 'created' | 'updated' | 'unchanged';

export interface AppliedSchedule {
  job: string;
  scheduleId: string;
  workflowType: string;
  cron: string;
  timeZone: string;
  result: ApplyResult;
}

/** Action memo keys: which job a run belongs to, and the declaration its schedule was last applied from. */
export const jobMemoKey = 'bankflowJob';
export const declarationMemoKey = 'bankflowDeclaration';

/** A fingerprint of everything a declaration sets, so `apply` updates a schedule only when it changed. */
export function declarationFingerprint(declaration: ScheduleDeclaration, taskQueue: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ ...declaration, taskQueue }))
    .digest('hex')
    .slice(0, 32);
}

function scheduleBody(
  declaration: ScheduleDeclaration,
  taskQueue: string,
): Omit<ScheduleUpdateOptions, 'state'> {
  return {
    spec: { cronExpressions: [declaration.cron], timezone: declaration.timeZone },
    action: {
      type: 'startWorkflow',
      workflowType: declaration.workflowType,
      workflowId: declaration.scheduleId,
      taskQueue,
      args: [],
      staticSummary: declaration.summary,
      memo: {
        [jobMemoKey]: declaration.job,
        [declarationMemoKey]: declarationFingerprint(declaration, taskQueue),
      },
      typedSearchAttributes: [{ key: searchAttributes.kind, value: declaration.job }],
    },
    policies: {
      overlap: declaration.overlap,
      catchupWindow: declaration.catchupWindow,
      pauseOnFailure: false,
    },
  };
}

export async function describeIfExists(handle: ScheduleHandle): Promise<ScheduleDescription | undefined> {
  try {
    return await handle.describe();
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return undefined;
    throw error;
  }
}

/** Names the schedule and the variable behind its cadence when the server refuses a declaration. */
function refused(declaration: ScheduleDeclaration, error: unknown): Error {
  return new Error(
    `schedule ${declaration.scheduleId}: ${(error as Error).message} (cadence ${JSON.stringify(declaration.cron)} from ${declaration.cronVariable}, time zone ${declaration.timeZone})`,
    { cause: error },
  );
}

async function applyOne(
  client: Client,
  taskQueue: string,
  declaration: ScheduleDeclaration,
): Promise<ApplyResult> {
  const body = scheduleBody(declaration, taskQueue);
  const handle = client.schedule.getHandle(declaration.scheduleId);
  const current = await describeIfExists(handle);
  try {
    if (!current) {
      try {
        await client.schedule.create({ scheduleId: declaration.scheduleId, ...body });
        return 'created';
      } catch (error) {
        // Created by a concurrent apply in between: fall through and make it match this declaration.
        if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      }
    } else if (current.action.memo?.[declarationMemoKey] === declarationFingerprint(declaration, taskQueue)) {
      return 'unchanged';
    }
    // A pause (and its note) is an operator's decision; applying a new declaration keeps it.
    await handle.update((previous) => ({
      ...body,
      state: { paused: previous.state.paused, note: previous.state.note },
    }));
    return 'updated';
  } catch (error) {
    throw refused(declaration, error);
  }
}

/**
 * Creates or updates every declared schedule, idempotently: a schedule whose declaration did not change is
 * left alone, so applying twice leaves the same schedules, one per job.
 */
export async function applyDeclarations(
  client: Client,
  taskQueue: string,
  declarations: readonly ScheduleDeclaration[],
): Promise<AppliedSchedule[]> {
  const applied: AppliedSchedule[] = [];
  for (const declaration of declarations) {
    applied.push({
      job: declaration.job,
      scheduleId: declaration.scheduleId,
      workflowType: declaration.workflowType,
      cron: declaration.cron,
      timeZone: declaration.timeZone,
      result: await applyOne(client, taskQueue, declaration),
    });
  }
  return applied;
}

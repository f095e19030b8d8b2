import { z } from 'zod';
import { dateTime } from '../bank/schemas/common.js';
import type { SchedulesConfig } from '../config.js';
import { applyDeclarations, type AppliedSchedule } from '../schedules/apply.js';
import {
  findDeclaration,
  scheduleDeclarations,
  type ScheduleDeclaration,
} from '../schedules/declarations.js';
import {
  backfillDeclared,
  describeDeclared,
  setPaused,
  triggerDeclared,
  type Backfill,
  type ScheduleView,
  type TriggeredRun,
} from '../schedules/operations.js';
import type { StarterContext } from './context.js';
import { InvalidInputError, parseInput } from './errors.js';

export type { AppliedSchedule, Backfill, ScheduleView, TriggeredRun };

/** Schedules need the starter context plus how they are declared (SCHEDULE_* variables). */
export interface SchedulesContext extends StarterContext {
  schedules: SchedulesConfig;
}

function declared(ctx: SchedulesContext, id: string): ScheduleDeclaration {
  const declarations = scheduleDeclarations(ctx.schedules);
  const declaration = findDeclaration(declarations, id);
  if (!declaration) {
    const known = declarations.map((d) => `${d.job} (${d.scheduleId})`).join(', ');
    throw new InvalidInputError('id', `no declared schedule ${JSON.stringify(id)}; declared: ${known}`);
  }
  return declaration;
}

const idInput = z.object({ id: z.string().min(1, 'is required') });
const noteInput = idInput.extend({ note: z.string().min(1).max(500).optional() });
const backfillInput = idInput
  .extend({ from: dateTime, to: dateTime })
  .refine((input) => Date.parse(input.from) < Date.parse(input.to), {
    path: ['to'],
    message: 'must be later than from',
  })
  .refine((input) => Date.parse(input.to) <= Date.now(), {
    path: ['to'],
    message: 'must not be in the future (a backfill runs past windows)',
  });

/** Creates or updates every declared schedule; unchanged ones are left alone. */
export async function applySchedules(ctx: SchedulesContext): Promise<AppliedSchedule[]> {
  return applyDeclarations(ctx.client, ctx.taskQueue, scheduleDeclarations(ctx.schedules));
}

/** Every declared schedule as the server holds it: state, next and recent runs, whether it is up to date. */
export async function listSchedules(ctx: SchedulesContext): Promise<ScheduleView[]> {
  return Promise.all(
    scheduleDeclarations(ctx.schedules).map((declaration) =>
      describeDeclared(ctx.client, ctx.taskQueue, declaration),
    ),
  );
}

/** One declared schedule, by job id (`refund-report`) or schedule id. */
export async function describeSchedule(ctx: SchedulesContext, input: { id: string }): Promise<ScheduleView> {
  const { id } = parseInput(idInput, input);
  return describeDeclared(ctx.client, ctx.taskQueue, declared(ctx, id));
}

/** Runs the job now, queued behind its running run if one runs; answers the workflow it started. */
export async function triggerSchedule(ctx: SchedulesContext, input: { id: string }): Promise<TriggeredRun> {
  const { id } = parseInput(idInput, input);
  return triggerDeclared(ctx.client, declared(ctx, id));
}

/** Runs the job for each scheduled time in [from, to], one after the other; answers the runs queued. */
export async function backfillSchedule(
  ctx: SchedulesContext,
  input: { id: string; from: string; to: string },
): Promise<Backfill> {
  const parsed = parseInput(backfillInput, input);
  return backfillDeclared(ctx.client, declared(ctx, parsed.id), new Date(parsed.from), new Date(parsed.to));
}

/** Stops the schedule from starting runs until unpaused; the note shows in describe and in the UI. */
export async function pauseSchedule(
  ctx: SchedulesContext,
  input: { id: string; note?: string },
): Promise<ScheduleView> {
  const parsed = parseInput(noteInput, input);
  const note = parsed.note ?? 'paused with bankflow schedules pause';
  return setPaused(ctx.client, ctx.taskQueue, declared(ctx, parsed.id), true, note);
}

export async function unpauseSchedule(
  ctx: SchedulesContext,
  input: { id: string; note?: string },
): Promise<ScheduleView> {
  const parsed = parseInput(noteInput, input);
  const note = parsed.note ?? 'unpaused with bankflow schedules unpause';
  return setPaused(ctx.client, ctx.taskQueue, declared(ctx, parsed.id), false, note);
}

import type { Command } from 'commander';
import type { ScheduleView, SchedulesContext } from '../../starter/index.js';
import { cliContext, printJson, withStarter, type CliContext } from '../context.js';
import { action } from '../errors.js';
import { withOptionNames } from '../option-names.js';
import { formatTable, type Column } from '../table.js';
import { printLines } from '../terminal-text.js';

function withSchedules<T>(ctx: CliContext, use: (schedules: SchedulesContext) => Promise<T>): Promise<T> {
  return withStarter(ctx, (starter) => use({ ...starter, schedules: ctx.config.schedules }));
}

const stateOf = (schedule: ScheduleView) =>
  !schedule.exists ? 'missing' : schedule.paused ? 'paused' : schedule.upToDate ? 'active' : 'outdated';

const scheduleColumns: Column<ScheduleView>[] = [
  { title: 'JOB', value: (s) => s.job },
  { title: 'SCHEDULE ID', value: (s) => s.scheduleId },
  { title: 'WORKFLOW', value: (s) => s.workflowType },
  { title: 'CRON', value: (s) => `${s.cron} (${s.timeZone})` },
  { title: 'STATE', value: stateOf },
  { title: 'NEXT RUN', value: (s) => s.nextRuns[0] ?? '' },
  { title: 'NOTE', value: (s) => s.note ?? '' },
];

export function scheduleCommands(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('the Temporal Schedules of the scheduled jobs (reports, metrics, attempts sync)');

  schedules
    .command('apply')
    .description('create or update every declared schedule (idempotent: unchanged schedules are left alone)')
    .action(
      action(async () => {
        const ctx = await cliContext();
        const { applySchedules } = await import('../../starter/index.js');
        printJson(await withSchedules(ctx, applySchedules));
      }),
    );

  schedules
    .command('list')
    .description('every declared schedule: cadence, state, next and recent runs')
    .option('--table', 'print a table for people instead of JSON')
    .action(
      action(async (options: { table?: boolean }) => {
        const ctx = await cliContext();
        const { listSchedules } = await import('../../starter/index.js');
        const views = await withSchedules(ctx, listSchedules);
        if (options.table) printLines(formatTable(views, scheduleColumns));
        else printJson(views);
      }),
    );

  schedules
    .command('trigger')
    .description(
      'run a job now, after its running run if one runs; it covers the time since its last completed window',
    )
    .argument('<id>', 'job id (e.g. refund-report) or schedule id')
    .action(
      action(async (id: string) => {
        const ctx = await cliContext();
        const { triggerSchedule } = await import('../../starter/index.js');
        printJson(await withSchedules(ctx, (starter) => triggerSchedule(starter, { id })));
      }),
    );

  schedules
    .command('backfill')
    .description('run a job for each of its scheduled times in [--from, --to], one after the other')
    .argument('<id>', 'job id (e.g. refund-report) or schedule id')
    .requiredOption('--from <date-time>', 'first scheduled time to run (ISO 8601)')
    .requiredOption('--to <date-time>', 'last scheduled time to run (ISO 8601)')
    .action(
      action(async (id: string, options: { from: string; to: string }) => {
        const ctx = await cliContext();
        const { backfillSchedule } = await import('../../starter/index.js');
        const backfill = await withOptionNames({ from: '--from', to: '--to' }, () =>
          withSchedules(ctx, (starter) => backfillSchedule(starter, { id, ...options })),
        );
        printJson(backfill);
      }),
    );

  schedules
    .command('pause')
    .description('stop a schedule from starting runs until it is unpaused')
    .argument('<id>', 'job id (e.g. refund-report) or schedule id')
    .option('--note <text>', 'why it is paused (shown in describe and in the Temporal UI)')
    .action(
      action(async (id: string, options: { note?: string }) => {
        const ctx = await cliContext();
        const { pauseSchedule } = await import('../../starter/index.js');
        printJson(await withSchedules(ctx, (starter) => pauseSchedule(starter, { id, note: options.note })));
      }),
    );

  schedules
    .command('unpause')
    .description('let a paused schedule start runs again')
    .argument('<id>', 'job id (e.g. refund-report) or schedule id')
    .option('--note <text>', 'a note to leave on the schedule')
    .action(
      action(async (id: string, options: { note?: string }) => {
        const ctx = await cliContext();
        const { unpauseSchedule } = await import('../../starter/index.js');
        printJson(
          await withSchedules(ctx, (starter) => unpauseSchedule(starter, { id, note: options.note })),
        );
      }),
    );
}

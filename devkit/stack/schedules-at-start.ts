import type { Logger } from 'pino';
import type { SchedulesConfig, TemporalConfig } from '../../src/config.js';
import { connectClient } from '../../src/temporal/connection.js';
import { applyDeclarations, type AppliedSchedule } from '../../src/schedules/apply.js';
import { scheduleDeclarations } from '../../src/schedules/declarations.js';

/** `npm start`: applies every declared schedule once the worker is up, over a connection of its own. */
export async function applySchedulesAtStart(
  temporal: TemporalConfig,
  schedules: SchedulesConfig,
  logger: Logger,
): Promise<AppliedSchedule[]> {
  const client = await connectClient(temporal);
  try {
    const applied = await applyDeclarations(client, temporal.taskQueue, scheduleDeclarations(schedules));
    for (const schedule of applied)
      logger.info(schedule, `schedule ${schedule.scheduleId} ${schedule.result}`);
    return applied;
  } finally {
    await client.connection.close();
  }
}

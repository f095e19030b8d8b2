import type { Client } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { StarterContext } from '../starter/index.js';
import { temporalAddress } from '../temporal/address.js';
import { printLines } from './terminal-text.js';

export interface CliContext<Loaded extends Config = Config> {
  config: Loaded;
  logger: Logger;
}

/**
 * Loads the configuration or ends the process with the offending variables named; the development kit's
 * commands load theirs with loadDevelopmentConfig (devkit/config.ts). The configuration and the logger are
 * imported here, when a command runs, so that `bankflow --help` holds neither.
 */
export async function cliContext<Loaded extends Config = Config>(
  load?: () => Loaded | Promise<Loaded>,
): Promise<CliContext<Loaded>> {
  const [{ ConfigError, loadConfig }, { createLogger }, { pino }] = await Promise.all([
    import('../config.js'),
    import('../logger.js'),
    import('pino'),
  ]);
  try {
    const config = load ? await load() : (loadConfig() as Loaded);
    // Logs go to stderr so a command's stdout holds only its answer (JSON a script can pipe).
    return { config, logger: createLogger(config.logLevel, pino.destination(2)) };
  } catch (error) {
    if (error instanceof ConfigError) {
      printLines(error.message, 'stderr');
      process.exit(2);
    }
    throw error;
  }
}

/** A starter context for one CLI command; the connection is closed when `use` settles. */
export async function withStarter<T>(
  ctx: CliContext,
  use: (starter: StarterContext) => Promise<T>,
): Promise<T> {
  const { connectClient } = await import('../temporal/connection.js');
  let client: Client;
  try {
    client = await connectClient(ctx.config.temporal);
  } catch (error) {
    throw new Error(
      `cannot reach Temporal at ${temporalAddress(ctx.config.temporal)} (TEMPORAL_ADDRESS, or ` +
        `${ctx.config.temporal.profileSource}): ${(error as Error).message}`,
    );
  }
  try {
    return await use({
      client,
      taskQueue: ctx.config.temporal.taskQueue,
      customerKeySecret: ctx.config.support.lookupSecret,
    });
  } finally {
    await client.connection.close();
  }
}

/**
 * JSON.stringify escapes C0 controls in strings but leaves DEL, C1 controls and bidi overrides raw; printed
 * line by line they are escaped too (`\u009b`), which JSON reads back as the same value.
 */
export function printJson(value: unknown): void {
  printLines(JSON.stringify(value, null, 2));
}

import { pino, type Logger, type LevelWithSilent } from 'pino';
import { redactRecord } from './log-redaction.js';
import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { logFields, withCamelCaseTraceIds } from './tracing/log-fields.js';

/**
 * bankflow's pino logger: every record passes through `redactRecord` (redaction by key, at any depth) before
 * it is written.
 */
export function createLogger(level: LevelWithSilent = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: 'bankflow',
      level,
      formatters: { log: redactRecord },
      // redactRecord already serialized every error; pino's own serializer would label the copy `Object`.
      serializers: { err: (serialized: unknown) => serialized },
      base: undefined,
      mixin: logFields,
    },
    destination,
  );
}

const temporalToPino: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Lets Temporal's Runtime (core SDK, workers, workflow sandbox) log through the same pino logger. */
/**
 * What the SDK warns of that bankflow does on purpose: a worker's activity queues
 * (src/contract/temporal.ts) are served by Workers with no workflows, which the SDK notes at start as if
 * it were a slip.
 */
const expectedNotice = (message: string) => message.startsWith('No workflows registered, not polling');

export function temporalLoggerFor(logger: Logger): TemporalLogger {
  const child = logger.child({ component: 'temporal' });
  const log = (level: LogLevel, message: string, meta?: LogMetadata) =>
    child[temporalToPino[expectedNotice(message) ? 'DEBUG' : level]](
      withCamelCaseTraceIds(meta ?? {}),
      message,
    );
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}

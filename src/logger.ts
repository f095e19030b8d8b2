import { pino, type Logger, type LevelWithSilent } from 'pino';
import type { LogLevel, LogMetadata, Logger as TemporalLogger } from '@temporalio/common';
import { logFields, withCamelCaseTraceIds } from './tracing/log-fields.js';

/**
 * Paths pino masks wherever they appear in a log record: bank and Temporal credentials, webhook secrets, and
 * customer data (tax numbers, names, account numbers, FIDO material).
 */
export const redactedPaths = [
  'authorization',
  'password',
  'clientSecret',
  'client_secret',
  'apiKey',
  'secret',
  'secrets',
  'tax_number',
  'counterparty_tax_number',
  'account_number',
  'fido_assertion',
  '*.authorization',
  '*.Authorization',
  '*.password',
  '*.clientSecret',
  '*.client_secret',
  '*.apiKey',
  '*.secret',
  '*.secrets',
  '*["x-webhook-secret"]',
  '*["x-webhook-signature"]',
  '*.tax_number',
  '*.counterparty_tax_number',
  '*.counterparty_name',
  '*.account_number',
  '*.counterparty',
  '*.fido_assertion',
  '*.credential',
  '*.account_info',
  '*.*.authorization',
  '*.*.tax_number',
  '*.*.counterparty_name',
  '*.*.account_info',
];

export function createLogger(level: LevelWithSilent = 'info', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name: 'bankflow',
      level,
      redact: { paths: redactedPaths, censor: '[redacted]' },
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
export function temporalLoggerFor(logger: Logger): TemporalLogger {
  const child = logger.child({ component: 'temporal' });
  const log = (level: LogLevel, message: string, meta?: LogMetadata) =>
    child[temporalToPino[level]](withCamelCaseTraceIds(meta ?? {}), message);
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}

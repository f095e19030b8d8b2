import { testEnvKeys } from '../setup/shared.js';
import { sandboxCredentials, type TestStack } from './stack.js';

/** The environment that points the CLI at a test stack: its Temporal server, task queue and sandbox bank. */
export function cliEnvFor(stack: TestStack): Record<string, string> {
  return {
    BANKFLOW_ENV: 'development',
    TEMPORAL_ADDRESS: process.env[testEnvKeys.address] ?? '',
    TEMPORAL_NAMESPACE: process.env[testEnvKeys.namespace] ?? 'default',
    TEMPORAL_TASK_QUEUE: stack.taskQueue,
    BANK_BASE_URL: stack.sandbox.url,
    BANK_CLIENT_ID: sandboxCredentials.clientId,
    BANK_CLIENT_SECRET: sandboxCredentials.clientSecret,
  };
}

/**
 * Each CLI run is a Node process (compiling TypeScript on start, run from source); on a busy machine a few of
 * them take minutes.
 */
export const cliTestTimeoutMs = 180_000;

/**
 * The environment of a `bankflow worker` process serving a test stack's task queue against its sandbox bank.
 */
export function workerProcessEnv(
  stack: TestStack,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LOG_LEVEL: 'info',
    ...cliEnvFor(stack),
    ...extra,
  };
}

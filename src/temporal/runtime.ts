import { Runtime } from '@temporalio/worker';
import type { Logger } from 'pino';
import { temporalLoggerFor } from '../logger.js';

let installed = false;

/**
 * Routes the Temporal Runtime's logs (core SDK included) through pino. Must run before any Worker or
 * NativeConnection exists; later calls in the same process are no-ops.
 */
export function installTemporalRuntime(logger: Logger): void {
  if (installed) return;
  Runtime.install({
    logger: temporalLoggerFor(logger),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} } },
    shutdownSignals: [],
  });
  installed = true;
}

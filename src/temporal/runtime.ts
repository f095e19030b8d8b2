import { createServer } from 'node:net';
import { Runtime, type RuntimeOptions } from '@temporalio/worker';
import type { Logger } from 'pino';
import { temporalLoggerFor } from '../logger.js';

let installed = false;

function installWith(
  logger: Logger,
  metrics: NonNullable<RuntimeOptions['telemetryOptions']>['metrics'],
): void {
  Runtime.install({
    logger: temporalLoggerFor(logger),
    telemetryOptions: { logging: { filter: { core: 'WARN', other: 'ERROR' }, forward: {} }, metrics },
    shutdownSignals: [],
  });
}

/**
 * Routes the Temporal Runtime's logs (core SDK included) through pino and, given an address, serves the SDK's
 * own metrics there for Prometheus. Must run before any Worker or NativeConnection exists; later calls in the
 * same process are no-ops. An SDK that cannot serve its metrics is installed without them: a warning, never a
 * worker that does not start.
 */
export function installTemporalRuntime(logger: Logger, metricsBindAddress?: string): void {
  if (installed) return;
  if (metricsBindAddress) {
    try {
      installWith(logger, { prometheus: { bindAddress: metricsBindAddress, useSecondsForDurations: true } });
      installed = true;
      return;
    } catch (error) {
      logger.warn(
        { err: error, bindAddress: metricsBindAddress },
        'Temporal SDK metrics not served (TEMPORAL_METRICS_PORT); the worker runs on without them',
      );
    }
  }
  installWith(logger, undefined);
  installed = true;
}

/**
 * `host:port` for the SDK's Prometheus endpoint when the port is free, else undefined with a warning: the
 * SDK's exporter would otherwise fail inside its own thread, out of bankflow's sight.
 */
export async function sdkMetricsBindAddress(
  host: string,
  port: number,
  logger: Logger,
): Promise<string | undefined> {
  const server = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
  } catch (error) {
    logger.warn(
      { err: error, host, port },
      `Temporal SDK metrics not served: ${host}:${port} is not available (TEMPORAL_METRICS_PORT); the worker runs on without them`,
    );
    return undefined;
  }
  await new Promise((resolve) => server.close(resolve));
  return `${host}:${port}`;
}

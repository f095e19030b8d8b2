import { createServer, type Server } from 'node:http';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Logger } from 'pino';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { nodeServerOptions } from '../http/server-timeouts.js';

/** bankflow's own worker metrics, beside the Temporal SDK's: the bank calls its activities make. */
export function createWorkerMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bankflow_worker_' });
  const labelNames = ['endpoint', 'outcome', 'status'] as const;
  return {
    registry,
    bankCalls: new Counter({
      name: 'bankflow_bank_calls_total',
      help: 'Bank calls by endpoint (the activity making it), outcome (ok or the failure type) and HTTP status',
      labelNames,
      registers: [registry],
    }),
    bankCallSeconds: new Histogram({
      name: 'bankflow_bank_call_seconds',
      help: 'Time of one bank call, answer parsed',
      labelNames,
      buckets: [0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/**
 * The outcome labels of a bank activity's end: what `bankActivity` threw carries the bank's failure type and
 * status.
 */
function outcomeOf(error: unknown): { outcome: string; status: string } {
  if (error instanceof ApplicationFailure && error.type) {
    const details = error.details?.[0] as { status?: number } | undefined;
    return { outcome: error.type, status: details?.status ? String(details.status) : 'none' };
  }
  return { outcome: 'error', status: 'none' };
}

/** Times every activity in `bankActivityNames` (one bank call each) and counts it by outcome. */
export function bankCallInterceptor(
  metrics: WorkerMetrics,
  bankActivityNames: ReadonlySet<string>,
): ActivityInterceptorsFactory {
  return () => ({
    inbound: {
      async execute(input, next) {
        const endpoint = Context.current().info.activityType;
        if (!bankActivityNames.has(endpoint)) return next(input);
        const stopTimer = metrics.bankCallSeconds.startTimer({ endpoint });
        let labels = { outcome: 'ok', status: '2xx' };
        try {
          return await next(input);
        } catch (error) {
          labels = outcomeOf(error);
          throw error;
        } finally {
          stopTimer(labels);
          metrics.bankCalls.inc({ endpoint, ...labels });
        }
      },
    },
  });
}

/**
 * Serves the registry on `host:port` at /metrics. A port already taken is logged and skipped: metrics are
 * worth less than the payments the worker would otherwise not run.
 */
export async function serveMetrics(
  registry: Registry,
  host: string,
  port: number,
  logger: Logger,
): Promise<Server | undefined> {
  const server = createServer(nodeServerOptions(), (request, response) => {
    if (request.url !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  } catch (error) {
    logger.warn(
      { err: error, host, port },
      `bankflow worker metrics not served: ${host}:${port} is not available (WORKER_METRICS_PORT); the worker runs on without them`,
    );
    return undefined;
  }
}

import type { Logger } from 'pino';
import { SupervisedProcess } from './supervised-process.js';

export interface WorkerProcessOptions {
  count: number;
  /** The Temporal frontend and the bank they use, over what the cluster's own environment says. */
  env: Record<string, string>;
  /** Each worker's Prometheus ports are these plus its index, so several fit on one host. */
  metricsPorts: { sdk: number | undefined; worker: number | undefined };
  logger: Logger;
}

/** The same CLI that runs the cluster (from dist, or from source under tsx), as `bankflow worker`. */
export function workerCommand(
  execPath = process.execPath,
  execArgv = process.execArgv,
  script = process.argv[1] ?? '',
) {
  return { command: execPath, args: [...execArgv, script, 'worker'] };
}

function metricsEnv(ports: WorkerProcessOptions['metricsPorts'], index: number): Record<string, string> {
  return {
    ...(ports.sdk ? { TEMPORAL_METRICS_PORT: String(ports.sdk + index) } : {}),
    ...(ports.worker ? { WORKER_METRICS_PORT: String(ports.worker + index) } : {}),
  };
}

/**
 * `bankflow worker` processes. They are not restarted when they die: losing one is what the others cover for,
 * and a host's process supervisor (systemd, Kubernetes) restarts workers in production.
 */
export async function startWorkerProcesses(options: WorkerProcessOptions): Promise<SupervisedProcess[]> {
  const { command, args } = workerCommand();
  const workers = Array.from(
    { length: options.count },
    (_, index) =>
      new SupervisedProcess(
        {
          name: `worker-${index + 1}`,
          command,
          args,
          env: { ...process.env, ...options.env, ...metricsEnv(options.metricsPorts, index) },
          graceMs: 30_000,
          echo: process.stderr,
        },
        options.logger,
      ),
  );
  for (const worker of workers) worker.start();
  await Promise.all(workers.map((worker) => worker.waitForOutput('worker running', 60_000)));
  return workers;
}

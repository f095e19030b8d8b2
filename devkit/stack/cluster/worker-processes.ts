import type { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Logger } from 'pino';
import { SupervisedProcess } from './supervised-process.js';

export interface WorkerProcessOptions {
  count: number;
  /** The Temporal frontend and the bank they use, over what the cluster's own environment says. */
  env: Record<string, string>;
  /** Each worker's Prometheus ports are these plus its index, so several fit on one host. */
  metricsPorts: { sdk: number | undefined; worker: number | undefined };
  logger: Logger;
  /** Where they are seen polling: a worker is up once the server lists it among the task queue's pollers. */
  temporal: { connection: Connection; namespace: string; taskQueue: string };
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
  await untilPolling(workers, options.temporal);
  return workers;
}

/** The SDK names a worker `<pid>@<host>`; the server lists the identities that polled in the last minute. */
async function untilPolling(
  workers: SupervisedProcess[],
  temporal: WorkerProcessOptions['temporal'],
): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const described = await temporal.connection.workflowService.describeTaskQueue({
      namespace: temporal.namespace,
      taskQueue: { name: temporal.taskQueue },
      taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
    });
    const identities = (described.pollers ?? []).map((poller) => poller.identity ?? '');
    const waiting = workers.filter((worker) => !identities.some((id) => id.startsWith(`${worker.pid}@`)));
    if (waiting.length === 0) return;
    const gone = waiting.find((worker) => !worker.running);
    if (gone || Date.now() > deadline) {
      const worker = gone ?? waiting[0];
      throw new Error(
        `${worker?.spec.name} did not start polling: ${worker?.recentOutput.trim().slice(-1_000)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

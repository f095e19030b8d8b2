import { z } from 'zod';
import { versionPromotions, type WorkerDeployment } from '../temporal/worker-deployment.js';
import {
  cachedWorkflowsBounds,
  cachedWorkflowsForHeap,
  defaultShutdownGraceSeconds,
  maxShutdownGraceSeconds,
} from '../temporal/worker-defaults.js';
import { optionalPort, optionalText, type Parsed } from './fields.js';
import type { GeneralEnv } from './general.js';
import type { TemporalConnectionEnv } from './temporal-connection.js';

/** How a worker process holds its workflows in memory, and where it serves its Prometheus metrics. */
export const workerVariables = {
  /**
   * Workflows a worker keeps in memory between their tasks; an evicted one replays its history on its next
   * task. Unset, sized from the V8 heap limit (`NODE_OPTIONS=--max-old-space-size`): 1 MB per workflow in
   * half the heap (docs/performance.md).
   */
  TEMPORAL_MAX_CACHED_WORKFLOWS: z.coerce
    .number()
    .int()
    .nonnegative()
    .max(cachedWorkflowsBounds.max, {
      message: `must be at most ${cachedWorkflowsBounds.max} (about 0.3 MB each)`,
    })
    .refine((value) => value !== 1, { message: 'must be 0 (no cache) or at least 2' })
    .optional(),
  /**
   * Where workers serve Prometheus metrics (the Temporal SDK's own, and bankflow's bank calls; each off when
   * its port is unset), and the receiver its WEBHOOK_INTERNAL_PORT.
   */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The Worker Deployment the worker's version belongs to (docs/upgrading-workflows.md); unset, the task
   * queue's name. The version's build id is derived from the workflow code, not configured.
   */
  TEMPORAL_DEPLOYMENT_NAME: optionalText,
  /**
   * When a worker makes its own version the deployment's current one: `never` (an operator promotes it with
   * `bankflow deployments promote`), `if-no-current` (only the first version of a new deployment), `always`
   * (at every start). Unset: `never` in production, `always` in development.
   */
  WORKER_VERSION_PROMOTION: z.enum(versionPromotions).optional(),
  TEMPORAL_METRICS_PORT: optionalPort,
  WORKER_METRICS_PORT: optionalPort,
  /**
   * How long a worker told to stop (SIGTERM, Ctrl-C) takes no new task and lets the activities under way
   * finish; those still running then are cancelled and tried again elsewhere. 0 cancels them at once.
   */
  WORKER_SHUTDOWN_GRACE_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds (e.g. 30)' })
    .int({ message: 'must be a whole number of seconds (e.g. 30)' })
    .min(0, { message: 'must be a number of seconds (e.g. 30), or 0 to cancel running activities at once' })
    .max(maxShutdownGraceSeconds, {
      message: `must be at most ${maxShutdownGraceSeconds} (an hour); it counts seconds, not milliseconds`,
    })
    .default(defaultShutdownGraceSeconds),
};

export type WorkerEnv = Parsed<typeof workerVariables>;

export interface WorkerConfig {
  /** Workflows a worker keeps cached; 0 disables the cache. */
  maxCachedWorkflows: number;
  /** The Worker Deployment the worker belongs to, and when it promotes its own version. */
  deployment: WorkerDeployment;
  /** Prometheus endpoints of a worker process; each off when its port is unset. */
  metrics?: { host: string; sdkPort: number | undefined; workerPort: number | undefined };
  /** How long a stopping worker lets its running activities finish before it cancels them. */
  shutdownGraceMs: number;
}

export function workerConfig(
  env: WorkerEnv & Pick<GeneralEnv, 'BANKFLOW_ENV'> & Pick<TemporalConnectionEnv, 'TEMPORAL_TASK_QUEUE'>,
): WorkerConfig {
  return {
    maxCachedWorkflows: env.TEMPORAL_MAX_CACHED_WORKFLOWS ?? cachedWorkflowsForHeap(),
    deployment: {
      name: env.TEMPORAL_DEPLOYMENT_NAME ?? env.TEMPORAL_TASK_QUEUE,
      promotion: env.WORKER_VERSION_PROMOTION ?? (env.BANKFLOW_ENV === 'development' ? 'always' : 'never'),
    },
    metrics: {
      host: env.METRICS_HOST,
      sdkPort: env.TEMPORAL_METRICS_PORT,
      workerPort: env.WORKER_METRICS_PORT,
    },
    shutdownGraceMs: env.WORKER_SHUTDOWN_GRACE_SECONDS * 1000,
  };
}

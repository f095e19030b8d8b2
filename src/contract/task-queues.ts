import type { Priority } from '@temporalio/common';

/**
 * The task queues a bankflow worker serves, by workload (docs/decisions.md, "Task queues by workload"):
 * - `background`: the workflow queue itself. Its workflow tasks, and the bank calls no customer waits on (journey
 *   polls, sync pages, report pages, metrics), paced at the budget's background share. It also runs every
 *   activity a run scheduled before the workload queues existed, so none is left without a worker.
 * - `interactive`: the bank calls a customer waits on (creates, authorization and registration options,
 *   authorizes, registers), paced at the budget's interactive share, so they never queue behind the background.
 * - `internal`: activities that never call the bank (Temporal, the report store), with no rate limit.
 */
export const workloads = ['background', 'interactive', 'internal'] as const;
export type Workload = (typeof workloads)[number];

/** The task queue of a workload for workflows running on `workflowQueue`. */
export function workloadTaskQueue(workflowQueue: string, workload: Workload): string {
  return workload === 'background' ? workflowQueue : `${workflowQueue}-${workload}`;
}

/** Every task queue the workers of `workflowQueue` serve, the workflow queue first. */
export const workerTaskQueues = (workflowQueue: string): string[] =>
  workloads.map((workload) => workloadTaskQueue(workflowQueue, workload));

/** The bank calls a customer waits on: the interactive queue's worker serves these and no other. */
export const interactiveBankCalls = [
  'listEnrollments',
  'createBiometricPayment',
  'getPaymentAuthorizationOptions',
  'authorizeBiometricPayment',
  'createEnrollment',
  'getRegistrationOptions',
  'registerCredential',
  'generateRecurrence',
] as const;
export type InteractiveBankCall = (typeof interactiveBankCalls)[number];

/**
 * Within the background share, the order a backlog drains in (Temporal's task priority: lower first, 3 by
 * default), where the server dispatches by priority: a journey's poll, which a customer's screen may be showing,
 * before the pages of a sync, a report or a metrics snapshot, which only need to finish within their window.
 */
export const backgroundPriority = {
  journeyPoll: { priorityKey: 2 },
  bulkPage: { priorityKey: 4 },
} as const satisfies Record<string, Priority>;

import type { Priority } from '@temporalio/common';

/**
 * The task queues a bankflow worker serves, by workload (docs/decisions.md, "Task queues by workload"):
 * - `background`: the workflow queue itself. Its workflow tasks, and the bank calls no customer waits on
 *   (sync pages, report pages, metrics), paced at the budget's background share less the poll budget. It also
 *   runs every activity a run scheduled before the workload queues existed, so none is left without a worker.
 * - `interactive`: the bank calls a customer waits on (creates, authorization and registration options,
 *   authorizes, registers), paced at the budget's interactive share, so they never queue behind the
 *   background.
 * - `polls`: the journeys' reads of the records they follow, paced at the fleet's poll budget
 *   (BANK_POLL_READS_PER_SECOND), so however many journeys are open their polls never take more of the bank.
 * - `internal`: activities that never call the bank (Temporal, the report store), with no rate limit.
 */
export const workloads = ['background', 'interactive', 'polls', 'internal'] as const;
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

/** The reads a journey makes to follow the bank: the polls queue's worker serves these and no other. */
export const journeyPollReads = ['getBiometricPayment', 'listEnrollments', 'getCollectionAttempt'] as const;
export type JourneyPollRead = (typeof journeyPollReads)[number];

/**
 * Within the background share, the order a backlog drains in (Temporal's task priority: lower first, 3 by
 * default), where the server dispatches by priority: the pages of a sync, a report or a metrics snapshot only
 * need to finish within their window.
 */
export const backgroundPriority = {
  bulkPage: { priorityKey: 4 },
} as const satisfies Record<string, Priority>;

/**
 * Within the poll budget, where the server dispatches by priority (docs/operations.md): a read a webhook
 * asked for (the bank has news, and a customer's screen may be waiting on it) before the reads timers fall
 * due for.
 */
export const pollPriority = {
  hint: { priorityKey: 1 },
  timer: { priorityKey: 3 },
} as const satisfies Record<string, Priority>;
export type PollTrigger = keyof typeof pollPriority;

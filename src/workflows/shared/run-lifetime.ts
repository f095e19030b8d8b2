import { patched, workflowInfo } from '@temporalio/workflow';
import { runLifetimeMs } from '../../contract/run-lifetime.js';

/**
 * The patch that bounds a long-lived run's lifetime: runs started before it keep no deadline of their own and
 * continue as new only on their history bound.
 */
export const runLifetimePatch = 'run-lifetime-bound';

/**
 * When this run continues as new (epoch ms, workflow time): its start plus the lifetime its start asked for,
 * infinite for a run that started before the patch.
 */
export function runDeadline(requestedMs: number | undefined): number {
  if (!patched(runLifetimePatch)) return Number.POSITIVE_INFINITY;
  return workflowInfo().runStartTime.getTime() + runLifetimeMs(requestedMs);
}

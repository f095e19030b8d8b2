import { workflowInfo } from '@temporalio/workflow';
import { runLifetimeMs } from '../../contract/run-lifetime.js';

/**
 * When this run continues as new (epoch ms, workflow time): its start plus the lifetime its start asked for.
 */
export function runDeadline(requestedMs: number | undefined): number {
  return workflowInfo().runStartTime.getTime() + runLifetimeMs(requestedMs);
}

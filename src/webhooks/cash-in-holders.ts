import type { Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy, WorkflowIdReusePolicy } from '@temporalio/common';
import type { SignalDefinition } from '@temporalio/workflow';
import { cashInHolderStatuses, cashInHolderWorkflowType } from '../contract/cash-in-holder.js';
import { workflowIds } from '../contract/ids.js';
import { searchAttributes } from '../contract/temporal.js';
import { memoKeys } from '../contract/journeys.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/**
 * Signals the holder of `endToEndId`'s cash-ins, starting it if it is not running. A closed holder is never
 * started again (the call then fails with WorkflowExecutionAlreadyStartedError): its events and claimer are
 * in its result. `event`, when given, is what support's unmatched list shows should nobody claim the holder.
 */
export async function signalCashInHolder<Arg>(
  client: Client,
  taskQueue: string,
  endToEndId: string,
  signal: SignalDefinition<[Arg]>,
  arg: Arg,
  event?: ReceivedWebhook,
): Promise<string> {
  const workflowId = workflowIds.cashIn(endToEndId);
  await client.workflow.signalWithStart(cashInHolderWorkflowType, {
    workflowId,
    taskQueue,
    signal: signal.name,
    signalArgs: [arg],
    workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    staticSummary: `Pix cash-ins for end-to-end id ${endToEndId}`,
    ...(event ? { memo: { [memoKeys.event]: event } } : {}),
    typedSearchAttributes: [
      { key: searchAttributes.kind, value: 'cash-in' },
      { key: searchAttributes.status, value: cashInHolderStatuses.held },
      { key: searchAttributes.endToEndId, value: endToEndId },
    ],
  });
  return workflowId;
}

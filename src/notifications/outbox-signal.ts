import type { Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/workflow';
import {
  notificationsWorkflowId,
  notificationsWorkflowType,
  type NotificationEvent,
  type NotificationsInput,
} from '../contract/notifications.js';
import { searchAttributes } from '../contract/search-attributes.js';

/**
 * Signals `resource`'s outbox, starting it to deliver to `endpoints` if none runs (it ends when idle). Answers
 * its workflow id.
 */
export async function signalOutbox<Arg>(
  client: Client,
  taskQueue: string,
  resource: NotificationEvent['resource'],
  endpoints: string[],
  signal: SignalDefinition<[Arg]>,
  arg: Arg,
  speedup?: number,
): Promise<string> {
  const workflowId = notificationsWorkflowId(resource);
  const input: NotificationsInput = { endpoints, ...(speedup ? { speedup } : {}) };
  await client.workflow.signalWithStart(notificationsWorkflowType, {
    workflowId,
    taskQueue,
    args: [input],
    signal,
    signalArgs: [arg],
    staticSummary: `notifications of ${resource.type} ${resource.id}`,
    typedSearchAttributes: [
      { key: searchAttributes.kind, value: 'notifications' },
      {
        key: resource.type === 'payment' ? searchAttributes.paymentId : searchAttributes.enrollmentId,
        value: resource.id,
      },
    ],
  });
  return workflowId;
}

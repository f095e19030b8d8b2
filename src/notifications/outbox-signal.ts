import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { SignalDefinition } from '@temporalio/workflow';
import {
  heldIn,
  notificationsMemoKey,
  notificationsWorkflowId,
  notificationsWorkflowType,
  type NotificationEvent,
  type NotificationLog,
  type NotificationsInput,
  type NotifiedResource,
} from '../contract/notifications.js';
import { searchAttributes } from '../contract/temporal.js';

const resourceSearchAttribute = {
  payment: searchAttributes.paymentId,
  enrollment: searchAttributes.enrollmentId,
  recurrence: searchAttributes.recurrenceId,
  boleto: searchAttributes.boletoId,
} satisfies Record<NotifiedResource, unknown>;

/**
 * Whether the resource's outbox has ended holding `event`'s id: the event was handed over before, by a run of
 * the workflow that made it (a running outbox ignores an id it holds, so only an ended one is asked). A
 * boleto's cancellation, run again, makes its one event again with a new time; this keeps its first content
 * the only one, for as long as the namespace retains the ended outbox.
 */
export async function endedOutboxHolds(client: Client, event: NotificationEvent): Promise<boolean> {
  try {
    const described = await client.workflow.getHandle(notificationsWorkflowId(event.resource)).describe();
    if (described.status.name === 'RUNNING') return false;
    const log = described.memo?.[notificationsMemoKey] as NotificationLog | undefined;
    return heldIn(log?.held ?? [], event.sequence);
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}

/**
 * Signals `resource`'s outbox, starting it to deliver to `endpoints` if none runs (it ends when idle).
 * Answers its workflow id.
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
      { key: resourceSearchAttribute[resource.type], value: resource.id },
    ],
  });
  return workflowId;
}

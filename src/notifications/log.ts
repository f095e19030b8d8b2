import type { Client } from '@temporalio/client';
import {
  notificationsMemoKey,
  notifiedResources,
  notificationsWorkflowId,
  resendNotificationSignal,
  type DeliveryEntry,
  type NotificationEvent,
  type NotificationLog,
} from '../contract/notifications.js';
import { InvalidInputError } from '../starter/errors.js';
import { signalOutbox } from './outbox-signal.js';
import { visibilityLiteral } from '../temporal/visibility.js';

/** The resource an event id (`<resource type>:<resource id>:<sequence>`) names, or InvalidInputError for `field`. */
export function resourceOfEventId(eventId: string, field: string): NotificationEvent['resource'] {
  const match = /^([a-z_]+):(.+):\d+$/.exec(eventId);
  const type = notifiedResources.find((known) => known === match?.[1]);
  if (!match?.[2] || !type)
    throw new InvalidInputError(
      field,
      `must be an event id, <${notifiedResources.join('|')}>:<id>:<sequence>`,
    );
  return { type, id: match[2] };
}

/** A resource's notifications as support reads them: every run of its outbox, the later run's word last. */
export interface ResourceNotifications extends NotificationLog {
  workflowId: string;
}

/**
 * The events and deliveries of `resource`'s outbox, merged over its runs (an outbox ends when idle, and the next
 * event starts another). Throws when no outbox ever ran for it.
 */
export async function readNotificationLog(
  client: Client,
  resource: NotificationEvent['resource'],
): Promise<ResourceNotifications> {
  const workflowId = notificationsWorkflowId(resource);
  const runs: { start: number; runId: string }[] = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = ${visibilityLiteral(workflowId)}` }))
    runs.push({ start: run.startTime.getTime(), runId: run.runId });
  // The latest run may not be visible yet; described by id alone it is the latest.
  const handles = [
    ...runs
      .sort((a, b) => a.start - b.start)
      .map(({ runId }) => client.workflow.getHandle(workflowId, runId)),
    client.workflow.getHandle(workflowId),
  ];
  const events = new Map<string, NotificationEvent>();
  const deliveries = new Map<string, DeliveryEntry>();
  let found = false;
  for (const handle of handles) {
    const described = await handle.describe().catch((error: unknown) => {
      if ((error as Error).name === 'WorkflowNotFoundError') return undefined;
      throw error;
    });
    const log = described?.memo?.[notificationsMemoKey] as NotificationLog | undefined;
    if (!log) continue;
    found = true;
    for (const event of log.events) events.set(event.id, event);
    for (const entry of log.deliveries) deliveries.set(`${entry.eventId} ${entry.endpoint}`, entry);
  }
  if (!found)
    throw new Error(
      `no notification was sent for ${resource.type} ${resource.id} (no workflow ${workflowId})`,
    );
  const sequence = (id: string) => events.get(id)?.sequence ?? 0;
  return {
    workflowId,
    events: [...events.values()].sort((a, b) => a.sequence - b.sequence),
    deliveries: [...deliveries.values()].sort((a, b) => sequence(a.eventId) - sequence(b.eventId)),
  };
}

/**
 * Delivers `eventId` again, the same event byte for byte, to `endpoint` or to every endpoint that had it; the
 * resource's outbox is started again if it ended. Answers the endpoints it goes to.
 */
export async function resendNotification(
  client: Client,
  taskQueue: string,
  eventId: string,
  endpoint?: string,
): Promise<{ workflowId: string; eventId: string; endpoints: string[] }> {
  const resource = resourceOfEventId(eventId, 'event id');
  const log = await readNotificationLog(client, resource);
  const event = log.events.find((held) => held.id === eventId);
  if (!event)
    throw new InvalidInputError('event id', `${resource.type} ${resource.id} has no event ${eventId}`);
  const known = [...new Set(log.deliveries.map((entry) => entry.endpoint))];
  if (endpoint !== undefined && !known.includes(endpoint))
    throw new InvalidInputError('--endpoint', `must be one the event went to: ${known.join(', ')}`);
  await signalOutbox(client, taskQueue, resource, known, resendNotificationSignal, {
    event,
    ...(endpoint ? { endpoint } : {}),
  });
  return { workflowId: log.workflowId, eventId, endpoints: endpoint ? [endpoint] : known };
}

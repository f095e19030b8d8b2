import type { Client } from '@temporalio/client';
import { decodeArrayFromPayloads } from '@temporalio/common/lib/internal-non-workflow/index.js';
import {
  notificationSignal,
  notificationsMemoKey,
  notifiedResources,
  notificationsWorkflowId,
  resendNotificationSignal,
  type DeliveryEntry,
  type EndpointCounts,
  type NotificationEvent,
  type NotificationLog,
} from '../contract/notifications.js';
import { InvalidInputError } from '../starter/errors.js';
import { signalOutbox } from './outbox-signal.js';
import { visibilityLiteral } from '../temporal/visibility.js';

/**
 * The resource an event id (`<resource type>:<resource id>:<sequence>`) names, or InvalidInputError for
 * `field`.
 */
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

/** A resource's notifications as support reads them, over every run of its outbox. */
export interface ResourceNotifications {
  workflowId: string;
  /** Per endpoint, the deliveries of every run by outcome. */
  endpoints: EndpointCounts[];
  /** Each run's deliveries pending and last ended, the later run's word last, in sequence order. */
  deliveries: DeliveryEntry[];
}

interface OutboxRun {
  runId: string;
  continuedAsNew: boolean;
  log: NotificationLog | undefined;
}

/** The runs of `workflowId`, oldest first. */
async function outboxRuns(client: Client, workflowId: string): Promise<OutboxRun[]> {
  const listed: { start: number; runId: string }[] = [];
  for await (const run of client.workflow.list({ query: `WorkflowId = ${visibilityLiteral(workflowId)}` }))
    listed.push({ start: run.startTime.getTime(), runId: run.runId });
  // The latest run may not be visible yet; described by id alone it is the latest.
  const handles = [
    ...listed
      .sort((a, b) => a.start - b.start)
      .map(({ runId }) => client.workflow.getHandle(workflowId, runId)),
    client.workflow.getHandle(workflowId),
  ];
  const runs: OutboxRun[] = [];
  for (const handle of handles) {
    const described = await handle.describe().catch((error: unknown) => {
      if ((error as Error).name === 'WorkflowNotFoundError') return undefined;
      throw error;
    });
    if (!described || runs.some((run) => run.runId === described.runId)) continue;
    runs.push({
      runId: described.runId,
      continuedAsNew: described.status.name === 'CONTINUED_AS_NEW',
      log: described.memo?.[notificationsMemoKey] as NotificationLog | undefined,
    });
  }
  return runs;
}

/**
 * The logs that together tell everything: a run that continued as new carried its log into the next, so each
 * chain of runs is told by its last run's memo (or, until that run wrote one, by the one before).
 */
function chainLogs(runs: OutboxRun[]): NotificationLog[] {
  const logs: NotificationLog[] = [];
  let chain: NotificationLog | undefined;
  for (const run of runs) {
    chain = run.log ?? chain;
    if (run.continuedAsNew || !chain) continue;
    logs.push(chain);
    chain = undefined;
  }
  return chain ? [...logs, chain] : logs;
}

/** The runs of `resource`'s outbox and the logs they tell; throws when no outbox ever ran for it. */
async function resourceRuns(client: Client, resource: NotificationEvent['resource']) {
  const workflowId = notificationsWorkflowId(resource);
  const runs = await outboxRuns(client, workflowId);
  const logs = chainLogs(runs);
  if (logs.length === 0)
    throw new Error(
      `no notification was sent for ${resource.type} ${resource.id} (no workflow ${workflowId})`,
    );
  return { workflowId, runIds: runs.map((run) => run.runId), logs };
}

/**
 * The deliveries of `resource`'s outbox, with counts per endpoint, merged over its runs (an outbox ends when
 * idle, and the next event starts another). Throws when no outbox ever ran for it.
 */
export async function readNotificationLog(
  client: Client,
  resource: NotificationEvent['resource'],
): Promise<ResourceNotifications> {
  const { workflowId, logs } = await resourceRuns(client, resource);
  const endpoints = new Map<string, EndpointCounts>();
  const deliveries = new Map<string, DeliveryEntry>();
  for (const log of logs) {
    for (const counts of log.endpoints) {
      const sum = endpoints.get(counts.endpoint) ?? { ...counts, delivered: 0, failed: 0, pending: 0 };
      sum.delivered += counts.delivered;
      sum.failed += counts.failed;
      sum.pending += counts.pending;
      endpoints.set(counts.endpoint, sum);
    }
    for (const entry of log.deliveries) deliveries.set(`${entry.eventId} ${entry.endpoint}`, entry);
  }
  const order = [...endpoints.keys()];
  return {
    workflowId,
    endpoints: [...endpoints.values()],
    deliveries: [...deliveries.values()].sort(
      (a, b) => a.sequence - b.sequence || order.indexOf(a.endpoint) - order.indexOf(b.endpoint),
    ),
  };
}

/**
 * The event `eventId` as an outbox run took it, from the signals in its history (the memo keeps no event):
 * the runs are read newest first, for as long as the namespace retains them.
 */
async function heldEvent(
  client: Client,
  workflowId: string,
  runIds: string[],
  eventId: string,
): Promise<NotificationEvent | undefined> {
  const { loadedDataConverter } = client.workflow.options;
  for (const runId of [...runIds].reverse()) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    for (const { workflowExecutionSignaledEventAttributes: signaled } of history.events ?? []) {
      const name = signaled?.signalName;
      if (name !== notificationSignal.name && name !== resendNotificationSignal.name) continue;
      const [arg] = await decodeArrayFromPayloads(loadedDataConverter, signaled?.input?.payloads);
      const event =
        name === notificationSignal.name
          ? (arg as NotificationEvent | undefined)
          : (arg as { event?: NotificationEvent } | undefined)?.event;
      if (event?.id === eventId) return event;
    }
  }
  return undefined;
}

/**
 * Delivers `eventId` again, the same event byte for byte, to `endpoint` or to every endpoint of the
 * resource's outbox; the outbox is started again if it ended. Answers the endpoints it goes to.
 */
export async function resendNotification(
  client: Client,
  taskQueue: string,
  eventId: string,
  endpoint?: string,
): Promise<{ workflowId: string; eventId: string; endpoints: string[] }> {
  const resource = resourceOfEventId(eventId, 'event id');
  const { workflowId, runIds, logs } = await resourceRuns(client, resource);
  const known = [...new Set(logs.flatMap((log) => log.endpoints.map((counts) => counts.endpoint)))];
  if (endpoint !== undefined && !known.includes(endpoint))
    throw new InvalidInputError('--endpoint', `must be one the event went to: ${known.join(', ')}`);
  const event = await heldEvent(client, workflowId, runIds, eventId);
  if (!event)
    throw new InvalidInputError('event id', `${resource.type} ${resource.id} has no event ${eventId}`);
  await signalOutbox(client, taskQueue, resource, known, resendNotificationSignal, {
    event,
    ...(endpoint ? { endpoint } : {}),
  });
  return { workflowId, eventId, endpoints: endpoint ? [endpoint] : known };
}

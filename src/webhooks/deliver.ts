import { createHash } from 'node:crypto';
import type { Client } from '@temporalio/client';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdConflictPolicy,
  WorkflowIdReusePolicy,
} from '@temporalio/common';
import { workflowIds } from '../contract/ids.js';
import { searchAttributes } from '../contract/temporal.js';
import { memoKeys } from '../contract/journeys.js';
import {
  unmatchedWebhookStatuses,
  unmatchedWebhookWorkflowType,
  type UnmatchedWebhookWorkflow,
} from '../contract/unmatched-webhook.js';
import { holdCashInSignal } from '../contract/cash-in-holder.js';
import type { ReceivedWebhook } from '../contract/webhook-events.js';
import { signalCashInHolder } from './cash-in-holders.js';
import type { WebhookRoute } from './router.js';
import { signalOnce } from './signal-once.js';
import { unmatchedEventKeys } from './unmatched-keys.js';

export type DeliveryOutcome = { delivered: 'signal' | 'held' | 'unmatched'; workflowId: string };

/**
 * Temporal did not take the event (unreachable, too slow for the bank's deadline, or refusing): nothing is
 * durable yet, so the bank must retry later (answered 503).
 */
export class TemporalUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Temporal is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'TemporalUnavailableError';
  }
}

/** Temporal's default `limit.maxIDLength`: a longer workflow id is refused as an invalid argument. */
const maxWorkflowIdBytes = 1000;

/**
 * The event key as the workflow id while it fits; an event whose category or type is too long for one is kept
 * under the key's digest instead (the key itself stays in the workflow's input and summary).
 */
export function unmatchedWorkflowId(key: string): string {
  const readable = workflowIds.unmatchedWebhook(key);
  if (Buffer.byteLength(readable) <= maxWorkflowIdBytes) return readable;
  return workflowIds.unmatchedWebhook(`sha256:${createHash('sha256').update(key).digest('hex')}`);
}

/**
 * Keeps an unclaimed event as a workflow of its own. The id comes from the event key and a closed one is
 * never reused, so a copy of an event already kept changes nothing, on any receiver replica, even once it is
 * resolved.
 */
async function keepUnmatched(
  client: Client,
  taskQueue: string,
  event: ReceivedWebhook,
): Promise<DeliveryOutcome> {
  const workflowId = unmatchedWorkflowId(event.key);
  try {
    await client.workflow.start<UnmatchedWebhookWorkflow>(unmatchedWebhookWorkflowType, {
      workflowId,
      taskQueue,
      args: [event],
      memo: { [memoKeys.event]: event },
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      staticSummary: `Unmatched ${event.envelope.category} ${event.envelope.type} for ${event.envelope.ref_id}`,
      typedSearchAttributes: [
        { key: searchAttributes.kind, value: 'webhook-unmatched' },
        { key: searchAttributes.status, value: unmatchedWebhookStatuses.open },
        ...unmatchedEventKeys(event.envelope),
      ],
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
  return { delivered: 'unmatched', workflowId };
}

/** Lands a cash-in in the holder of its end-to-end id; undefined when that holder has closed. */
async function holdCashIn(
  client: Client,
  taskQueue: string,
  endToEndId: string,
  event: ReceivedWebhook,
): Promise<DeliveryOutcome | undefined> {
  try {
    const workflowId = await signalCashInHolder(
      client,
      taskQueue,
      endToEndId,
      holdCashInSignal,
      event,
      event,
    );
    return { delivered: 'held', workflowId };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return undefined;
    throw error;
  }
}

/**
 * Hands the event to Temporal by the workflow id its route names, and resolves only once the server has
 * accepted it, so a 2xx to the bank means the event is durable; no search is made. Any failure becomes
 * TemporalUnavailableError.
 */
export async function deliverWebhook(
  client: Client,
  taskQueue: string,
  event: ReceivedWebhook,
  route: WebhookRoute | undefined,
): Promise<DeliveryOutcome> {
  try {
    if (route && 'cashIn' in route) {
      const held = await holdCashIn(client, taskQueue, route.cashIn, event);
      if (held) return held;
    } else if (route && (await signalOnce(client, route.workflowId, route.signal.name, event))) {
      return { delivered: 'signal', workflowId: route.workflowId };
    }
    return await keepUnmatched(client, taskQueue, event);
  } catch (error) {
    throw new TemporalUnavailableError(error);
  }
}

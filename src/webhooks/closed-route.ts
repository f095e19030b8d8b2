import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { ReceivedWebhook } from '../workflows/webhook-events.js';

/** The key of the webhook a signal carried; none for a payload this client cannot read (e.g. a forged plaintext). */
async function signalledKey(client: Client, payload: Payload): Promise<string | undefined> {
  const { payloadCodecs, payloadConverter } = client.workflow.options.loadedDataConverter;
  try {
    let decoded = payload;
    for (const codec of [...payloadCodecs].reverse()) {
      const [next] = await codec.decode([decoded]);
      if (next) decoded = next;
    }
    return payloadConverter.fromPayload<Partial<ReceivedWebhook>>(decoded).key;
  } catch {
    return undefined;
  }
}

/**
 * True when the routed workflow has closed and its last run's history holds this event's signal: the event is a
 * replay (from another receiver replica, or after a restart) and is acknowledged without a new workflow. An event
 * the closed workflow never heard is not one: it is kept as unmatched, so nothing the bank sent is lost.
 */
export async function heardBeforeClosing(
  client: Client,
  workflowId: string,
  signalName: string,
  key: string,
): Promise<boolean> {
  let history;
  try {
    history = await client.workflow.getHandle(workflowId).fetchHistory();
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
  for (const event of history.events ?? []) {
    const signal = event.workflowExecutionSignaledEventAttributes;
    const payload = signal?.input?.payloads?.[0];
    if (signal?.signalName !== signalName || !payload) continue;
    if ((await signalledKey(client, payload)) === key) return true;
  }
  return false;
}

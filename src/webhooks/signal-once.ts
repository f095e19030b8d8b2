import { createHash } from 'node:crypto';
import { isGrpcServiceError, type Client, type WorkflowSignalInput } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { ReceivedWebhook } from '../contract/webhook-events.js';

/** gRPC's NOT_FOUND: the workflow does not exist or has closed. */
const grpcNotFound = 5;

/** The same request id for every copy of one event, wherever it arrives: a uuid-shaped digest of its key. */
export function signalRequestId(key: string): string {
  const hex = createHash('sha256').update(`webhook-signal:${key}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

async function encoded(client: Client, event: ReceivedWebhook): Promise<Payload[]> {
  const { payloadConverter, payloadCodecs } = client.workflow.options.loadedDataConverter;
  let payloads = [payloadConverter.toPayload(event)];
  for (const codec of payloadCodecs) payloads = await codec.encode(payloads);
  return payloads;
}

/**
 * Signals the event with a request id derived from its key. Temporal records each signal's request id in the
 * workflow run and answers a second signal with the same one as done, adding nothing to the history, even
 * once the run has closed; so a copy of the event that reaches another receiver replica, or arrives after the
 * workflow ended, changes nothing. (The client's own `signal` draws a random request id.) Resolves to false
 * when no run has this request id and the workflow does not exist or has closed: the event is then kept as
 * unmatched.
 */
export async function signalOnce(
  client: Client,
  workflowId: string,
  signalName: string,
  event: ReceivedWebhook,
): Promise<boolean> {
  const send = async (input: WorkflowSignalInput) => {
    await client.workflowService.signalWorkflowExecution({
      namespace: client.options.namespace,
      workflowExecution: input.workflowExecution,
      signalName: input.signalName,
      header: { fields: input.headers },
      input: { payloads: await encoded(client, event) },
      identity: client.options.identity,
      requestId: signalRequestId(event.key),
    });
  };
  // The client's interceptors (tracing; bankflow configures them as a list) wrap this call as they wrap its
  // signals.
  const configured = client.workflow.options.interceptors;
  const interceptors = Array.isArray(configured) ? configured : [];
  const signal = interceptors.reduceRight<typeof send>((next, interceptor) => {
    const wrap = interceptor.signal?.bind(interceptor);
    return wrap ? (input) => wrap(input, next) : next;
  }, send);
  try {
    await signal({ workflowExecution: { workflowId }, signalName, args: [event], headers: {} });
    return true;
  } catch (error) {
    if (isGrpcServiceError(error) && error.code === grpcNotFound) return false;
    throw error;
  }
}

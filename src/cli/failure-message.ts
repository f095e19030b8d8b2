import { WorkflowFailedError } from '@temporalio/client';
import { TemporalFailure, WorkflowNotFoundError } from '@temporalio/common';

const isWrapper = (error: unknown): error is Error & { cause?: unknown } =>
  error instanceof WorkflowFailedError || (error instanceof TemporalFailure && error.cause !== undefined);

/**
 * The reasons of a failure chain, outermost first, without Temporal's wrappers: "Failed to create schedule"
 * alone says nothing, the gRPC error in its cause says which search attribute the namespace lacks.
 */
export function rootMessage(error: unknown): string {
  const reasons: string[] = [];
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current !== undefined && current !== null && !seen.has(current)) {
    seen.add(current);
    if (isWrapper(current) && current.cause) {
      current = current.cause;
      continue;
    }
    if (current instanceof WorkflowNotFoundError) {
      reasons.push(`no workflow ${current.workflowId} in this namespace (was it started?)`);
      break;
    }
    const message = current instanceof Error ? current.message : String(current);
    if (!reasons.some((reason) => reason.includes(message))) reasons.push(message);
    current = current instanceof Error ? current.cause : undefined;
  }
  return reasons.join(': ');
}

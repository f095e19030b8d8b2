import { WorkflowFailedError } from '@temporalio/client';
import { TemporalFailure, WorkflowNotFoundError } from '@temporalio/common';

const isWrapper = (error: unknown): error is Error & { cause?: unknown } =>
  error instanceof WorkflowFailedError || (error instanceof TemporalFailure && error.cause !== undefined);

/** The innermost reason of a failure chain: what actually went wrong, without Temporal's wrappers. */
export function rootMessage(error: unknown): string {
  let current: unknown = error;
  while (isWrapper(current) && current.cause) current = current.cause;
  if (current instanceof WorkflowNotFoundError) {
    return `no workflow ${current.workflowId} in this namespace (was it started?)`;
  }
  return current instanceof Error ? current.message : String(current);
}

/** Runs a CLI action, printing a one-line reason and exiting non-zero on failure. */
export function action<Args extends unknown[]>(run: (...args: Args) => Promise<void>) {
  return async (...args: Args) => {
    try {
      await run(...args);
    } catch (error) {
      console.error(`error: ${rootMessage(error)}`);
      process.exitCode = 1;
    }
  };
}

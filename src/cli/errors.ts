import { WorkflowFailedError } from '@temporalio/client';
import { TemporalFailure } from '@temporalio/common';

/** The innermost reason of a failure chain: what actually went wrong, without Temporal's wrappers. */
export function rootMessage(error: unknown): string {
  let current: unknown = error;
  while (current instanceof WorkflowFailedError || (current instanceof TemporalFailure && current.cause)) {
    const next: unknown = current.cause;
    if (!next) break;
    current = next;
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

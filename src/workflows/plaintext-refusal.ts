import { ApplicationFailure, log, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { failureTypes } from './failure-types.js';
import { isPlaintextMarker } from './plaintext-marker.js';

function refusal(what: string, args: readonly unknown[]): string | undefined {
  const marker = args.find(isPlaintextMarker);
  if (!marker) return undefined;
  return (
    `refused ${what}: its payload is not encrypted (encoding ${JSON.stringify(marker.bankflowRefusedPlaintextEncoding)}); ` +
    "with TEMPORAL_ENCRYPTION_KEYS set, only a client using bankflow's data converter (the same keys) may send it"
  );
}

/**
 * Refuses what came in plaintext while payloads are encrypted (the worker's codec marks it: plaintext-marker.ts):
 * a start fails at once, an update is rejected by its validator, a signal is dropped with a warning. Anyone with
 * write access to the namespace could otherwise pose as the bank; the workflow goes on as if nothing came.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const refused = refusal('the workflow input', input.args);
        if (refused) throw ApplicationFailure.nonRetryable(refused, failureTypes.plaintextRefused);
        return next(input);
      },
      // Not async, here and below: an extra await would move when the handler's commands come, and break replay.
      handleSignal(input, next) {
        const refused = refusal(`the signal ${input.signalName}`, input.args);
        if (!refused) return next(input);
        log.warn(refused, { signal: input.signalName });
        return Promise.resolve();
      },
      // Every bankflow update has a validator, which is where a refusal reaches the caller and leaves no trace.
      validateUpdate(input, next) {
        const refused = refusal(`the update ${input.name}`, input.args);
        if (refused) throw ApplicationFailure.nonRetryable(refused, failureTypes.plaintextRefused);
        next(input);
      },
    },
  ],
});

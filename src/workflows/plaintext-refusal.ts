import { ApplicationFailure, log, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import { failureTypes } from '../contract/journeys.js';
import { isRefusedPayloadMarker } from '../contract/plaintext-marker.js';

function refusal(what: string, args: readonly unknown[]): string | undefined {
  const marker = args.find(isRefusedPayloadMarker);
  if (!marker) return undefined;
  return (
    `refused ${what}: its payload ${marker.bankflowRefusedPayload}; ` +
    "with TEMPORAL_ENCRYPTION_KEYS set, only a client using bankflow's data converter (the same keys) may send it"
  );
}

/**
 * Refuses what bankflow did not write while payloads are encrypted: a payload in clear, or one labelled
 * encrypted that does not decrypt (the worker's codec marks either: plaintext-marker.ts). A start fails at
 * once, an update is rejected by its validator, a signal is dropped with a warning, a query fails to its
 * caller. Anyone with write access to the namespace could otherwise pose as the bank, or stall a payment with
 * a payload no worker can read (every workflow task of the run would fail); the workflow goes on as if
 * nothing came.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const refused = refusal('the workflow input', input.args);
        if (refused) throw ApplicationFailure.nonRetryable(refused, failureTypes.plaintextRefused);
        return next(input);
      },
      // Not async, here and below: an extra await would move when the handler's commands come, and break
      // replay.
      handleSignal(input, next) {
        const refused = refusal(`the signal ${input.signalName}`, input.args);
        if (!refused) return next(input);
        log.warn(refused, { signal: input.signalName });
        return Promise.resolve();
      },
      // Every bankflow update has a validator, which is where a refusal reaches the caller and leaves no
      // trace.
      validateUpdate(input, next) {
        const refused = refusal(`the update ${input.name}`, input.args);
        if (refused) throw ApplicationFailure.nonRetryable(refused, failureTypes.plaintextRefused);
        next(input);
      },
      // A rejected promise, never a throw: the SDK only turns a rejection into the query's failure.
      handleQuery(input, next) {
        const refused = refusal(`the query ${input.queryName}`, input.args);
        if (!refused) return next(input);
        return Promise.reject(ApplicationFailure.nonRetryable(refused, failureTypes.plaintextRefused));
      },
    },
  ],
});

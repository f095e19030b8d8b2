import {
  BankRateLimitedError,
  BankRequestRejectedError,
  BankUnavailableError,
  BankValidationError,
  type BankErrorContext,
} from '../../src/bank/errors.js';

/**
 * What goes wrong with the next bank calls. `timeout` is a call whose answer never came back: a write the bank
 * carried out all the same, a read that did nothing; bankflow's client reports both as BankUnavailable.
 */
export type Fault =
  { kind: 'unavailable' } | { kind: 'rate-limited'; retryAfterMs: number } | { kind: 'timeout' };

const context = (operation: string, status?: number): BankErrorContext => ({
  operation,
  method: 'POST',
  path: `/model/${operation}`,
  status,
  requestId: 'model',
});

/** The BankError the real client raises for a fault; the activity wrapper turns it into an ApplicationFailure. */
export function faultError(operation: string, fault: Fault): Error {
  switch (fault.kind) {
    case 'unavailable':
      return new BankUnavailableError('HTTP 503 SERVICE_UNAVAILABLE', context(operation, 503));
    case 'rate-limited':
      return new BankRateLimitedError(context(operation, 429), fault.retryAfterMs);
    case 'timeout':
      return new BankUnavailableError('no answer within the timeout', context(operation));
  }
}

/** The bank's 409 to a request its record no longer allows. */
export const conflict = (operation: string, detail: string) =>
  new BankRequestRejectedError(context(operation, 409), detail, 'CONFLICT');

/** The bank's 422 to an assertion it cannot verify. */
export const invalidAssertion = (operation: string) =>
  new BankValidationError(context(operation, 422), [
    { title: 'Invalid assertion', detail: 'the signature does not verify' },
  ]);

/** Fault injection shared by both model banks: each bank call takes the next fault queued, if any. */
export class FaultQueue {
  private readonly queued: Fault[] = [];

  add(fault: Fault, count: number): void {
    for (let i = 0; i < count; i++) this.queued.push(fault);
  }

  /**
   * Runs one bank call: a queued fault fails it, before its effect or (a timeout of a write) after it.
   */
  call<T>(operation: string, effect: () => T, write = false): T {
    const fault = this.queued.shift();
    if (!fault) return effect();
    if (fault.kind === 'timeout' && write) effect();
    throw faultError(operation, fault);
  }
}

import type { z } from 'zod';
import { alterAnswer } from '../../devkit/sandbox/answer-alterations.js';
import { alterationRuleSchema, type AlterationRule } from '../../devkit/sandbox/faults.js';
import {
  BankInvalidResponseError,
  BankRateLimitedError,
  BankRequestRejectedError,
  BankUnauthorizedError,
  BankUnavailableError,
  BankValidationError,
  type BankErrorContext,
} from '../../src/bank/errors.js';
import { describeZodIssues } from '../../src/bank/http.js';

/**
 * What goes wrong with the next bank calls. `timeout` is a call whose answer never came back: a write the
 * bank carried out all the same, a read that did nothing; bankflow's client reports both as BankUnavailable.
 */
export type Fault =
  { kind: 'unavailable' } | { kind: 'rate-limited'; retryAfterMs: number } | { kind: 'timeout' };

/**
 * What goes wrong with the next read of the record a journey follows, as the sandbox injects it: refused with
 * a status of its `fail_next` (a credential rotation: 401), or answered as an `alter_next` rule changes the
 * answer.
 */
export type ReadFault = { kind: 'refused'; status: 401 | 403 } | { kind: 'altered'; rule: AlterationRule };

/** The sandbox's own rules, with its defaults (an unknown status is `under_review`). */
export const unknownStatusRule = alterationRuleSchema.parse({ mode: 'unknown_status', count: 1 });
export const malformedBodyRule = alterationRuleSchema.parse({ mode: 'malformed_body', count: 1 });

const context = (operation: string, status?: number): BankErrorContext => ({
  operation,
  method: 'POST',
  path: `/model/${operation}`,
  status,
  requestId: 'model',
});

/**
 * The BankError the real client raises for a fault; the activity wrapper turns it into an ApplicationFailure.
 */
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

/** What the real client raises for a refused read, from the sandbox's body for the status. */
function refusal(operation: string, status: 401 | 403): Error {
  return status === 401
    ? new BankUnauthorizedError(context(operation, 401))
    : new BankRequestRejectedError(
        context(operation, 403),
        'these credentials may not reach this resource',
        'FORBIDDEN',
      );
}

/** The bank's 409 to a request its record no longer allows. */
export const conflict = (operation: string, detail: string) =>
  new BankRequestRejectedError(context(operation, 409), detail, 'CONFLICT');

/** The bank's 422 to an assertion it cannot verify. */
export const invalidAssertion = (operation: string) =>
  new BankValidationError(context(operation, 422), [
    { title: 'Invalid assertion', detail: 'the signature does not verify' },
  ]);

/**
 * An answer's text as the client reads it: JSON, then `schema` on its `data`; the BankInvalidResponseError
 * the client raises when it cannot.
 */
function readAnswer<A>(operation: string, body: string, schema: z.ZodType<A>): A {
  const invalid = (detail: string) =>
    new BankInvalidResponseError(detail, { ...context(operation, 200), method: 'GET' });
  let answer: { data?: unknown };
  try {
    answer = JSON.parse(body) as { data?: unknown };
  } catch {
    throw invalid('the bank answered HTTP 200 with a body that is not JSON');
  }
  const parsed = schema.safeParse(answer.data);
  if (!parsed.success) {
    throw invalid(
      `the bank's response does not match the expected shape: ${describeZodIssues(parsed.error)}`,
    );
  }
  return parsed.data;
}

/** Fault injection shared by both model banks: each bank call takes the next fault queued, if any. */
export class FaultQueue {
  private readonly queued: Fault[] = [];
  private readonly readFaults: ReadFault[] = [];

  add(fault: Fault, count: number): void {
    for (let i = 0; i < count; i++) this.queued.push(fault);
  }

  addToReads(fault: ReadFault, count: number): void {
    for (let i = 0; i < count; i++) this.readFaults.push(fault);
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

  /**
   * Runs one read of the followed record: a queued fault fails it as any call; else the next read fault
   * refuses it before the bank reads, or changes the answer `read` gives as the sandbox changes it, which the
   * client then reads as it reads any answer. An alteration waits for an answer it changes (an empty list
   * takes no status).
   */
  read<T, A>(operation: string, read: () => T, schema: z.ZodType<A>): T | A {
    return this.call(operation, () => {
      const fault = this.readFaults[0];
      if (fault?.kind === 'refused') {
        this.readFaults.shift();
        throw refusal(operation, fault.status);
      }
      const answer = read();
      if (!fault) return answer;
      const altered = alterAnswer(JSON.stringify({ data: answer }), [fault.rule]);
      if (altered.applied.length === 0) return answer;
      this.readFaults.shift();
      return readAnswer(operation, altered.body, schema);
    });
  }
}

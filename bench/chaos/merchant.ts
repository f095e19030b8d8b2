import { setTimeout as sleep } from 'node:timers/promises';
import { type Client, isGrpcServiceError, ServiceError, WorkflowFailedError } from '@temporalio/client';
import { AuthenticatorError } from '../../devkit/authenticator/software-authenticator.js';
import { BankError } from '../../src/bank/errors.js';
import { InvalidInputError, RequestRefusedError } from '../../src/starter/index.js';
import { journeyDeadlineMs } from './profile.js';

/**
 * An answer is what the merchant must act on (the workflow's or the bank's "no", bad input); anything else
 * means Temporal or the bank could not be reached or answered too late, and the call is worth repeating. A
 * refused credential is repeated too: the merchant's own bank calls share the workers' credentials, which the
 * bank may be rotating.
 */
function isAnswer(error: unknown): boolean {
  if (error instanceof BankError) return !error.retryable && error.type !== 'BankUnauthorized';
  return (
    error instanceof RequestRefusedError ||
    error instanceof WorkflowFailedError ||
    error instanceof InvalidInputError ||
    error instanceof AuthenticatorError
  );
}

/** gRPC status names, for the counts (the codes are fixed by the gRPC protocol). */
const grpcStatusNames = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

function grpcCodeOf(error: unknown): number | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if (isGrpcServiceError(current)) return current.code;
  }
  return undefined;
}

/** Names why a call failed: the gRPC status when Temporal answered with one, else the error's class. */
export function failureKind(error: unknown): string {
  if (error instanceof BankError) return `bank ${error.type}`;
  const code = grpcCodeOf(error);
  if (code !== undefined) return `Temporal ${grpcStatusNames[code] ?? code}`;
  if (error instanceof ServiceError) return 'Temporal ServiceError';
  return error instanceof Error ? error.name : typeof error;
}

/** A call into bankflow or the bank, repeated while its failure is not an answer. */
export interface MerchantCalls {
  call<T>(operation: string, run: () => Promise<T>, budgetMs?: number): Promise<T>;
}

/** How long one try of a Temporal call may take before the merchant gives up on it and tries again. */
const attemptDeadlineMs = 30_000;

/**
 * What a merchant backend does around every call into bankflow and the bank: repeat a call that failed
 * because Temporal was restarting (or the bank was unavailable) with exponential backoff, and count each
 * repeat.
 */
export class MerchantRetries implements MerchantCalls {
  readonly byOperation = new Map<string, number>();
  readonly byKind = new Map<string, number>();

  constructor(private readonly client: Client) {}

  get total(): number {
    return [...this.byOperation.values()].reduce((sum, count) => sum + count, 0);
  }

  async call<T>(operation: string, run: () => Promise<T>, budgetMs = journeyDeadlineMs): Promise<T> {
    const deadline = Date.now() + budgetMs;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.client.connection.withDeadline(
          Math.min(Date.now() + attemptDeadlineMs, deadline),
          run,
        );
      } catch (error) {
        if (isAnswer(error) || Date.now() >= deadline) throw error;
        this.count(operation, failureKind(error));
        await sleep(Math.min(200 * 2 ** (attempt - 1), 5_000));
      }
    }
  }

  private count(operation: string, kind: string): void {
    this.byOperation.set(operation, (this.byOperation.get(operation) ?? 0) + 1);
    this.byKind.set(kind, (this.byKind.get(kind) ?? 0) + 1);
  }
}

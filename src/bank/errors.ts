import { bankErrorRetryable, type BankErrorType } from './vocabulary.js';
import type { ErrorItem } from './schemas/errors.js';

export interface BankErrorContext {
  operation: string;
  method: string;
  path: string;
  status?: number;
  requestId: string;
}

export abstract class BankError extends Error {
  abstract readonly type: BankErrorType;
  /** The bank's own code (UNAUTHORIZED, INTEGRATION_ERROR, ...) when its body carried one. */
  readonly bankCode: string | undefined;

  constructor(
    message: string,
    readonly context: BankErrorContext,
    bankCode?: string,
  ) {
    super(`${context.operation}: ${message}`);
    this.name = new.target.name;
    this.bankCode = bankCode;
  }

  get retryable(): boolean {
    return bankErrorRetryable[this.type];
  }
}

/** 401: the configured credentials are wrong; retrying cannot help. */
export class BankUnauthorizedError extends BankError {
  readonly type = 'BankUnauthorized';
  constructor(context: BankErrorContext, bankCode = 'UNAUTHORIZED') {
    super(
      `the bank refused the credentials (HTTP 401 ${bankCode}); check BANK_CLIENT_ID and BANK_CLIENT_SECRET`,
      context,
      bankCode,
    );
  }
}

/** 400/422 with an errors list: our request is wrong. */
export class BankValidationError extends BankError {
  readonly type = 'BankValidation';
  constructor(
    context: BankErrorContext,
    readonly errors: ErrorItem[],
    bankCode?: string,
  ) {
    super(`the bank rejected the request: ${describeErrorItems(errors)}`, context, bankCode);
  }
}

export class BankNotFoundError extends BankError {
  readonly type = 'BankNotFound';
  constructor(context: BankErrorContext, detail: string, bankCode?: string) {
    super(`not found (HTTP 404): ${detail}`, context, bankCode);
  }
}

/** Any other 4xx (403, 409, ...): the bank will give the same answer again. */
export class BankRequestRejectedError extends BankError {
  readonly type = 'BankRequestRejected';
  constructor(context: BankErrorContext, detail: string, bankCode?: string) {
    super(`rejected (HTTP ${context.status ?? '?'}): ${detail}`, context, bankCode);
  }
}

/** 429: slow down; `retryAfterMs` comes from the Retry-After header when the bank sent one. */
export class BankRateLimitedError extends BankError {
  readonly type = 'BankRateLimited';
  constructor(
    context: BankErrorContext,
    readonly retryAfterMs: number | undefined,
  ) {
    super(
      `rate limited (HTTP 429)${retryAfterMs === undefined ? '' : `, retry after ${retryAfterMs} ms`}`,
      context,
      'RATE_LIMITED',
    );
  }
}

/** 408, 5xx, timeouts and network failures: transient, retried with backoff. */
export class BankUnavailableError extends BankError {
  readonly type = 'BankUnavailable';
}

/** A 2xx whose body is not JSON or does not match the spec's shape; names the offending path. */
export class BankInvalidResponseError extends BankError {
  readonly type = 'BankInvalidResponse';
}

export function describeErrorItems(errors: ErrorItem[]): string {
  if (errors.length === 0) return 'no details given';
  return errors
    .map((item) => {
      const where = item.source?.pointer ? ` at ${item.source.pointer}` : '';
      return `${item.title}${where}: ${item.detail}`;
    })
    .join('; ');
}

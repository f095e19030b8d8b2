import { randomUUID } from 'node:crypto';
import type { Span } from '@opentelemetry/api';
import got, { RequestError, type CancelableRequest, type Got, type Method } from 'got';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { BankConfig } from '../config.js';
import {
  BankInvalidResponseError,
  BankNotFoundError,
  BankRateLimitedError,
  BankRequestRejectedError,
  BankUnauthorizedError,
  BankUnavailableError,
  BankValidationError,
  type BankError,
  type BankErrorContext,
} from './errors.js';
import { recordStatus, traceBankCall } from './tracing.js';
import { errorListBodySchema, otherErrorBodySchema, singleErrorBodySchema } from './schemas/errors.js';

export type QueryValue = string | number | boolean | undefined;

/**
 * The most bytes of one answer bankflow reads from the bank, after decompression: 4 MiB. The largest answer
 * the spec allows is a page of 100 records (the attempts list's `limit`, 50 elsewhere), each a few KB with
 * its stages, so under 1 MiB; this is several times that. An answer over it, said by its Content-Length or
 * found while reading, is refused as BankInvalidResponse and its connection closed: a faulty or hostile
 * endpoint at BANK_BASE_URL costs a worker at most this much memory per call.
 */
export const bankAnswerMaxBytes = 4 * 1024 * 1024;

export interface BankRequest<T extends z.ZodType> {
  /** Names the call in errors and logs, e.g. `cancelBoleto`. */
  operation: string;
  method: Method;
  /** Relative to the base URL, with path parameters already encoded. */
  path: string;
  /**
   * `path` with its parameters as placeholders (`/banking/cards/{card_id}`); `path` itself when it has none.
   */
  route?: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  schema: T;
}

/**
 * The one place that speaks HTTP to the bank: Basic auth, timeouts, a request id, and the translation of
 * every failure into a typed BankError. No retries here: activities own retrying, so a call is tried exactly
 * once.
 */
export class BankHttp {
  private readonly http: Got;
  private readonly server: string;

  constructor(
    config: BankConfig & { baseUrl: string },
    private readonly logger: Logger,
  ) {
    this.server = new URL(config.baseUrl).host;
    this.http = got.extend({
      prefixUrl: config.baseUrl,
      username: config.clientId,
      password: config.clientSecret,
      timeout: { request: config.timeoutMs },
      retry: { limit: 0 },
      throwHttpErrors: false,
      followRedirect: false,
      responseType: 'text',
      headers: { accept: 'application/json', 'user-agent': 'bankflow' },
    });
  }

  request<T extends z.ZodType>(request: BankRequest<T>): Promise<z.infer<T>> {
    const call = {
      method: request.method,
      route: request.route ?? request.path,
      operation: request.operation,
      server: this.server,
    };
    return traceBankCall(call, (span) => this.send(request, span));
  }

  private async send<T extends z.ZodType>(request: BankRequest<T>, span: Span): Promise<z.infer<T>> {
    const requestId = randomUUID();
    const context: BankErrorContext = {
      operation: request.operation,
      method: request.method,
      path: request.path,
      requestId,
    };
    const started = performance.now();
    const call = this.http(request.path.replace(/^\//, ''), {
      method: request.method,
      searchParams: definedQuery(request.query),
      json: request.body,
      headers: { 'x-request-id': requestId },
    });
    const oversized = refuseOversizedAnswer(call, context);
    let response;
    try {
      response = await call;
    } catch (error) {
      const failure = oversized.refused ? oversizedAnswer(context) : networkFailure(error, context);
      this.logger.warn({ ...context, err: failure.message }, 'bank call failed');
      throw failure;
    }
    context.status = response.statusCode;
    recordStatus(span, response.statusCode);
    const elapsedMs = Math.round(performance.now() - started);
    this.logger.debug({ ...context, elapsedMs }, 'bank call');

    if (response.statusCode >= 200 && response.statusCode < 300) {
      return parseBody(response.body, request.schema, context);
    }
    const failure = httpFailure(response.statusCode, response.body, response.headers['retry-after'], context);
    this.logger.warn(
      { ...context, elapsedMs, type: failure.type, code: failure.bankCode },
      'bank call failed',
    );
    throw failure;
  }
}

function definedQuery(query: Record<string, QueryValue> | undefined): Record<string, string> | undefined {
  if (!query) return undefined;
  const entries = Object.entries(query).filter((entry): entry is [string, string | number | boolean] => {
    return entry[1] !== undefined;
  });
  return Object.fromEntries(entries.map(([key, value]) => [key, String(value)]));
}

/**
 * Cancels `call` as soon as its answer is known to pass `bankAnswerMaxBytes`: by its Content-Length before
 * the body is read, or by the bytes read so far. Got would otherwise read the whole body into memory before
 * bankflow sees it. Sets the context's status, which the answer's head gives.
 */
function refuseOversizedAnswer(call: CancelableRequest, context: BankErrorContext): { refused: boolean } {
  const state = { refused: false };
  // `on` answers the call itself, a promise awaited by the caller.
  void call.on('request', (request) =>
    request.once('response', (response) => (context.status = response.statusCode)),
  );
  void call.on('downloadProgress', ({ transferred, total }) => {
    if (state.refused || Math.max(transferred, total ?? 0) <= bankAnswerMaxBytes) return;
    state.refused = true;
    call.cancel();
  });
  return state;
}

function oversizedAnswer(context: BankErrorContext): BankError {
  return new BankInvalidResponseError(
    `the bank answered HTTP ${context.status ?? '?'} with a body over ${bankAnswerMaxBytes} bytes ` +
      `(4 MiB), the most bankflow reads of an answer; it was not read further`,
    context,
  );
}

function networkFailure(error: unknown, context: BankErrorContext): BankError {
  if (error instanceof RequestError) {
    return new BankUnavailableError(`network failure (${error.code}): ${error.message}`, context, error.code);
  }
  return new BankUnavailableError(`request failed: ${String(error)}`, context);
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch {
    return { ok: false };
  }
}

function parseBody<T extends z.ZodType>(body: string, schema: T, context: BankErrorContext): z.infer<T> {
  const json = parseJson(body);
  if (!json.ok) {
    throw new BankInvalidResponseError(
      `the bank answered HTTP ${context.status} with ${unreadBody(body, 'that is not JSON')}`,
      context,
    );
  }
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) {
    throw new BankInvalidResponseError(
      `the bank's response does not match the expected shape: ${describeZodIssues(parsed.error)}`,
      context,
    );
  }
  return parsed.data;
}

/** `data.status: expected string, received number; data.id: ...` */
export function describeZodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/**
 * A body bankflow could not read, described by its size only: quoting it (an error page, a proxy's echo of
 * the request) could copy personal data into errors, histories and logs.
 */
function unreadBody(body: string, what: string): string {
  const text = body.trim();
  return text === '' ? 'an empty body' : `a body ${what} (${Buffer.byteLength(text)} bytes, not quoted)`;
}

interface BankErrorBody {
  code: string | undefined;
  message: string;
  items: z.infer<typeof errorListBodySchema>['errors'] | undefined;
}

/** Reads either documented error shape, a gateway's `{message}`, a plain string, or nothing useful at all. */
function readErrorBody(body: string): BankErrorBody {
  const json = parseJson(body);
  if (json.ok) {
    const single = singleErrorBodySchema.safeParse(json.value);
    if (single.success) {
      return {
        code: single.data.error.error_code,
        message: single.data.error.error_message,
        items: undefined,
      };
    }
    const list = errorListBodySchema.safeParse(json.value);
    if (list.success) {
      const first = list.data.errors[0];
      return { code: first?.title, message: first?.detail ?? 'no details given', items: list.data.errors };
    }
    const other = otherErrorBodySchema.safeParse(json.value);
    if (other.success) return { code: other.data.code, message: other.data.message, items: undefined };
    if (typeof json.value === 'string') return { code: undefined, message: json.value, items: undefined };
  }
  return { code: undefined, message: unreadBody(body, 'in no error shape bankflow knows'), items: undefined };
}

/** Retry-After is either delay-seconds or an HTTP date. */
export function retryAfterMs(header: string | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function httpFailure(
  status: number,
  body: string,
  retryAfter: string | undefined,
  context: BankErrorContext,
): BankError {
  const error = readErrorBody(body);
  if (status === 401) return new BankUnauthorizedError(context, error.code ?? 'UNAUTHORIZED');
  if (status === 429) return new BankRateLimitedError(context, retryAfterMs(retryAfter));
  if (status === 408 || status >= 500) {
    return new BankUnavailableError(
      `the bank is unavailable (HTTP ${status}${error.code ? ` ${error.code}` : ''}): ${error.message}`,
      context,
      error.code,
    );
  }
  if (status === 404) return new BankNotFoundError(context, error.message, error.code);
  if ((status === 400 || status === 422) && error.items)
    return new BankValidationError(context, error.items, error.code);
  if (status === 400 || status === 422) {
    return new BankValidationError(
      context,
      [{ title: error.code ?? 'INVALID_REQUEST', detail: error.message }],
      error.code,
    );
  }
  return new BankRequestRejectedError(context, error.message, error.code);
}

import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_SERVER_ADDRESS,
} from '@opentelemetry/semantic-conventions';

const tracer = trace.getTracer('bankflow-bank-client');

export interface BankCallSpan {
  method: string;
  /** The path template, e.g. /banking/cards/{card_id}: low-cardinality, so spans group by endpoint. */
  route: string;
  operation: string;
  /** The bank's host; ids and query values stay out of spans (they may identify a customer). */
  server: string;
}

/**
 * Runs one bank HTTP call in a client span named `METHOD route`, a child of the activity's span. The status
 * is set by `call` through `span`; a thrown error marks the span failed. A no-op when tracing is off.
 */
export function traceBankCall<T>(call: BankCallSpan, run: (span: Span) => Promise<T>): Promise<T> {
  return tracer.startActiveSpan(
    `${call.method} ${call.route}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: call.method,
        [ATTR_HTTP_ROUTE]: call.route,
        [ATTR_SERVER_ADDRESS]: call.server,
        'bankflow.bank.operation': call.operation,
      },
    },
    async (span) => {
      try {
        return await run(span);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

export const recordStatus = (span: Span, status: number) =>
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);

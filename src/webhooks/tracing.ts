import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { FastifyReply, FastifyRequest } from 'fastify';

const tracer = trace.getTracer('bankflow-webhook-receiver');

/**
 * Runs a route's handler in a server span (`POST /webhooks`), continuing a `traceparent` a proxy in front
 * sent, so the signal or start it sends to Temporal, and the workflow's handling of it, are in the request's
 * trace. A no-op when tracing is off.
 */
export function traced<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  handle: () => Promise<T>,
): Promise<T> {
  const route = request.routeOptions.url ?? request.url;
  const parent = propagation.extract(context.active(), request.headers);
  return tracer.startActiveSpan(
    `${request.method} ${route}`,
    {
      kind: SpanKind.SERVER,
      attributes: { [ATTR_HTTP_REQUEST_METHOD]: request.method, [ATTR_HTTP_ROUTE]: route },
    },
    parent,
    async (span) => {
      try {
        return await handle();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, reply.statusCode);
        if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
    },
  );
}

import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { ClientInterceptors } from '@temporalio/client';
import type { ActivityInterceptorsFactory, InjectedSinks } from '@temporalio/worker';
import type { Tracing } from './setup.js';

/**
 * Every bankflow client carries the trace context of the caller (a receiver request, a merchant's request, an
 * activity) into the start, signal or update it sends, in the call's Temporal headers. With no tracer
 * provider registered the interceptor's spans are no-ops and no header is written.
 */
export const tracingClientInterceptors = (): ClientInterceptors => ({
  workflow: [new OpenTelemetryWorkflowClientInterceptor()],
});

/** An activity span under the workflow's, and the trace id in the SDK's activity log attributes. */
export const tracingActivityInterceptor: ActivityInterceptorsFactory = (ctx) => ({
  inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
  outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
});

/**
 * Where the workflow interceptor (src/workflows/tracing.ts) hands its spans. A worker without tracing still
 * registers the sink, dropping them, for workflows a traced client started.
 */
export function workflowSpanSinks(tracing: Tracing | undefined): InjectedSinks<OpenTelemetrySinks> {
  if (tracing) return { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) };
  return { exporter: { export: { fn: () => undefined } } };
}

import { isSpanContextValid, trace } from '@opentelemetry/api';
import { asyncLocalStorage } from '@temporalio/activity';

/**
 * What every pino line adds about where it was logged from: the active span (a receiver request, an activity,
 * a bank call), so a log line leads to its trace, and the workflow an activity works for.
 */
export function logFields(): Record<string, string> {
  const span = trace.getActiveSpan()?.spanContext();
  const activity = asyncLocalStorage.getStore()?.info;
  const workflowId = activity?.workflowExecution?.workflowId;
  return {
    ...(span && isSpanContextValid(span) ? { traceId: span.traceId, spanId: span.spanId } : {}),
    ...(workflowId ? { workflowId } : {}),
    ...(activity ? { activityType: activity.activityType } : {}),
  };
}

/**
 * The SDK's workflow and activity log attributes name the trace in snake case; bankflow's lines in camel
 * case.
 */
export function withCamelCaseTraceIds(meta: Record<string, unknown>): Record<string, unknown> {
  if (!('trace_id' in meta) && !('span_id' in meta)) return meta;
  const { trace_id: traceId, span_id: spanId, ...rest } = meta;
  return { ...rest, traceId, spanId };
}

import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import { trace } from '@opentelemetry/api';
import type { Headers } from '@temporalio/common';
import {
  RUN_ID_ATTR_KEY,
  WORKFLOW_ID_ATTR_KEY,
} from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import { workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/** The header a traced client writes the caller's trace context into. */
const traceHeader = '_tracer-data';
const carriesTrace = (headers: Headers) => traceHeader in headers;

/**
 * OpenTelemetry's workflow interceptors, for what a traced client sent only: a run started without the trace
 * header (tracing off, a schedule's run, every history recorded before tracing) passes straight through, so
 * its workflow code and commands are exactly as before; a traced signal or update gets its span either way.
 * Spans leave through a sink and never become commands.
 */
export const interceptors: WorkflowInterceptorsFactory = () => {
  let otel:
    | {
        inbound: OpenTelemetryInboundInterceptor;
        outbound: OpenTelemetryOutboundInterceptor;
        internals: OpenTelemetryInternalsInterceptor;
      }
    | undefined;
  const tracing = () =>
    (otel ??= {
      inbound: new OpenTelemetryInboundInterceptor(),
      outbound: new OpenTelemetryOutboundInterceptor(),
      internals: new OpenTelemetryInternalsInterceptor(),
    });
  let runTraced = false;
  const outbound = () => (runTraced ? tracing().outbound : undefined);
  return {
    inbound: [
      {
        execute(input, next) {
          runTraced = carriesTrace(input.headers);
          if (!runTraced) return next(input);
          return tracing().inbound.execute(input, (inRunSpan) => {
            // The run span names its workflow as the activity spans do, so a trace search by id finds it.
            const { workflowId, runId } = workflowInfo();
            trace
              .getActiveSpan()
              ?.setAttributes({ [WORKFLOW_ID_ATTR_KEY]: workflowId, [RUN_ID_ATTR_KEY]: runId });
            return next(inRunSpan);
          });
        },
        handleSignal: (input, next) =>
          carriesTrace(input.headers) ? tracing().inbound.handleSignal(input, next) : next(input),
        handleUpdate: (input, next) =>
          carriesTrace(input.headers) ? tracing().inbound.handleUpdate(input, next) : next(input),
      },
    ],
    outbound: [
      {
        scheduleActivity: (input, next) => outbound()?.scheduleActivity(input, next) ?? next(input),
        scheduleLocalActivity: (input, next) => outbound()?.scheduleLocalActivity(input, next) ?? next(input),
        startChildWorkflowExecution: (input, next) =>
          outbound()?.startChildWorkflowExecution(input, next) ?? next(input),
        continueAsNew: (input, next) => outbound()?.continueAsNew(input, next) ?? next(input),
        signalWorkflow: (input, next) => outbound()?.signalWorkflow(input, next) ?? next(input),
        getLogAttributes: (input, next) => outbound()?.getLogAttributes(input, next) ?? next(input),
      },
    ],
    internals: [
      {
        dispose(input, next) {
          // OpenTelemetry's dispose is declared async but completes synchronously.
          if (otel) void otel.internals.dispose(input, next);
          else next(input);
        },
      },
    ],
  };
};

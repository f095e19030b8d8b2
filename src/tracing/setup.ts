import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Logger } from 'pino';
import type { TracingConfig } from '../config.js';
import { WarningSpanExporter } from './warning-exporter.js';

/**
 * This process's tracer provider, registered globally; the worker hands its processor to the workflow sink.
 */
export interface Tracing {
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Sends the spans still queued, then unregisters the provider. */
  shutdown(): Promise<void>;
}

/**
 * The OTLP/HTTP exporter TracingConfig describes, warning (rate-limited) when the collector is unreachable.
 */
export function otlpExporter(config: TracingConfig, logger: Logger): SpanExporter {
  return new WarningSpanExporter(
    new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers }),
    config.tracesUrl,
    logger.child({ component: 'tracing' }),
  );
}

/**
 * Registers a tracer provider for the whole process: the Temporal interceptors, the bank client and the
 * receiver all take their tracer from the OpenTelemetry API, which stays a no-op when this is never called.
 */
export function startTracing(serviceName: string, exporter: SpanExporter): Tracing {
  const resource = new Resource({ [ATTR_SERVICE_NAME]: serviceName });
  const spanProcessor = new BatchSpanProcessor(exporter);
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return {
    spanProcessor,
    resource,
    async shutdown() {
      // The last batch fails when the collector cannot be reached, and the exporter has warned of that
      // already: spans never turn a clean stop into a failed one.
      await provider.shutdown().catch(() => undefined);
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/**
 * Tracing as the configuration asks: undefined (off, nothing registered) unless OTEL_* variables enable it.
 */
export function startConfiguredTracing(
  config: TracingConfig | undefined,
  logger: Logger,
): Tracing | undefined {
  return config ? startTracing(config.serviceName, otlpExporter(config, logger)) : undefined;
}

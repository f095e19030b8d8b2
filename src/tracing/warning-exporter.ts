import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';

/** One warning per this interval at most, however many batches fail in it. */
const warningIntervalMs = 60_000;

/**
 * Wraps the OTLP exporter so that a collector that cannot be reached is one warning a minute in the log, with
 * how many batches were dropped since the last one: spans are worth less than the payments beside them.
 */
export class WarningSpanExporter implements SpanExporter {
  private failedSinceWarning = 0;
  private lastWarningAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly inner: SpanExporter,
    private readonly target: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS) this.failed(spans.length, result.error);
      resultCallback(result);
    });
  }

  private failed(spanCount: number, error: Error | undefined): void {
    this.failedSinceWarning += 1;
    if (this.now() - this.lastWarningAt < warningIntervalMs) return;
    this.logger.warn(
      { err: error?.message, target: this.target, droppedBatches: this.failedSinceWarning, spanCount },
      `traces not exported to ${this.target} (OTEL_EXPORTER_OTLP_ENDPOINT or _TRACES_ENDPOINT); payments run on, spans are dropped`,
    );
    this.lastWarningAt = this.now();
    this.failedSinceWarning = 0;
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { createLogger } from '../../src/logger.js';
import { startTracing } from '../../src/tracing/setup.js';
import { WarningSpanExporter } from '../../src/tracing/warning-exporter.js';

/** An exporter answering each batch with the next result given. */
function answering(results: ExportResult[]): SpanExporter {
  return {
    export: (_spans, done) => done(results.shift() ?? { code: ExportResultCode.SUCCESS }),
    shutdown: () => Promise.resolve(),
  };
}

describe('WarningSpanExporter', () => {
  const warnings: Record<string, unknown>[] = [];
  const logger = createLogger(
    'warn',
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        warnings.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    }),
  );
  beforeEach(() => warnings.splice(0));

  it('warns once a minute however many batches fail, counting the dropped ones, and passes results on', () => {
    const failure = { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:9') };
    let now = 0;
    const exporter = new WarningSpanExporter(
      answering([failure, failure, failure, { code: ExportResultCode.SUCCESS }, failure]),
      'http://127.0.0.1:9/v1/traces',
      logger,
      () => now,
    );
    const results: ExportResultCode[] = [];
    const spans: ReadableSpan[] = [];
    for (const at of [0, 1_000, 30_000, 40_000, 61_000]) {
      now = at;
      exporter.export(spans, (result) => results.push(result.code));
    }
    expect(results).toEqual([
      ExportResultCode.FAILED,
      ExportResultCode.FAILED,
      ExportResultCode.FAILED,
      ExportResultCode.SUCCESS,
      ExportResultCode.FAILED,
    ]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({
      level: 40,
      target: 'http://127.0.0.1:9/v1/traces',
      droppedBatches: 1,
      err: 'connect ECONNREFUSED 127.0.0.1:9',
    });
    expect(warnings[0]?.msg).toContain('traces not exported to http://127.0.0.1:9/v1/traces');
    expect(warnings[1]).toMatchObject({ droppedBatches: 3 });
  });

  it('lets a process stop cleanly with spans still queued for a collector it cannot reach', async () => {
    const failure = { code: ExportResultCode.FAILED, error: new Error('connect ECONNREFUSED 127.0.0.1:9') };
    const tracing = startTracing(
      'bankflow-test',
      new WarningSpanExporter(answering([failure]), 'http://127.0.0.1:9/v1/traces', logger),
    );
    trace.getTracer('bankflow-test').startSpan('queued at the stop').end();
    await expect(tracing.shutdown()).resolves.toBeUndefined();
    expect(warnings).toHaveLength(1);
  });
});

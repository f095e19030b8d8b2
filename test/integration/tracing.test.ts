import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startCliProcess, terminate, type CliProcess } from '../../bench/chaos/cli-process.js';
import { createLogger } from '../../src/logger.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { startTracing, type Tracing } from '../../src/tracing/setup.js';
import { workflowIds } from '../../src/contract/ids.js';
import { cliTestTimeoutMs, workerProcessEnv } from '../helpers/cli-env.js';
import { freePort } from '../helpers/cli.js';
import { enroll, eventually, newCustomer, payAndSettle } from '../helpers/journey.js';
import { recordHistory } from '../helpers/replay.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const workflowIdOf = (span: ReadableSpan) => span.attributes.temporalWorkflowId;

/**
 * The spans of a finished journey: the chain of parents above one, and those of a name under a workflow's
 * span.
 */
function spanTree(spans: ReadableSpan[]) {
  const byId = new Map(spans.map((span) => [span.spanContext().spanId, span]));
  const ancestors = (span: ReadableSpan): ReadableSpan[] => {
    const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
    return parent ? [parent, ...ancestors(parent)] : [];
  };
  const named = (name: string, workflowId: string) =>
    spans.filter(
      (span) =>
        span.name === name &&
        [span, ...ancestors(span)].some((candidate) => workflowIdOf(candidate) === workflowId),
    );
  return { ancestors, named };
}

describe('traces: one payment journey, from the merchant and the bank webhook to the bank calls', () => {
  const exporter = new InMemorySpanExporter();
  const lines: Record<string, unknown>[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = createLogger('debug', capture);
  const tempDir = tempDirs('bankflow-tracing-');
  let tracing: Tracing;
  let stack: TestStack;
  let log: WriteStream | undefined;
  let worker: CliProcess | undefined;

  beforeAll(async () => {
    installTemporalRuntime(logger);
    tracing = startTracing('bankflow-test', exporter);
    stack = await startTestStack({ receiver: true, logger, tracing });
  });

  afterAll(async () => {
    if (worker) await terminate(worker, 5_000);
    await new Promise((resolve) => (log ? log.end(resolve) : resolve(undefined)));
    await stack?.stop();
    await tracing?.shutdown();
  });

  it('holds the receiver request, its signal, the workflow run, its bank activities and their HTTP calls, and the starter updates', async () => {
    const customer = await newCustomer(stack);
    const { result: enrolled } = await enroll(stack, customer);
    const externalId = `traced-${randomUUID()}`;
    await payAndSettle(stack, customer, {
      externalId,
      enrollmentId: enrolled.enrollment?.id ?? '',
      amountCents: 2_500,
      description: 'traced',
    });
    const workflowId = workflowIds.payment(externalId);
    const isRun = (span: ReadableSpan) =>
      span.name === 'RunWorkflow:biometricPaymentWorkflow' && workflowIdOf(span) === workflowId;
    // The run's span reaches the exporter when the workflow completes, after the result the starter waited
    // for.
    await eventually(
      async () => {
        await tracing.spanProcessor.forceFlush();
        return exporter.getFinishedSpans().filter(isRun).length;
      },
      (runs) => runs === 1,
    );
    // A traced run's history carries trace headers; the replay test proves it replays like any other.
    await recordHistory(stack.client, workflowId, 'payment-traced');
    const spans = exporter.getFinishedSpans();
    const tree = spanTree(spans);

    // The merchant's start (update-with-start) is the root of the run; the run schedules the bank calls.
    const [start] = tree.named('UpdateWithStartWorkflow:paymentCreated', workflowId);
    const [run] = spans.filter(isRun);
    expect(start).toBeDefined();
    expect(run && tree.ancestors(run)).toContain(start);
    const traceId = start?.spanContext().traceId;
    const [create] = tree.named('RunActivity:createBiometricPayment', workflowId);
    const [http] = spans.filter(
      (span) => create !== undefined && span.parentSpanId === create.spanContext().spanId,
    );
    expect(create && tree.ancestors(create)).toContain(run);
    expect(http).toMatchObject({
      name: 'POST /banking/cashin/pix/biometrics/enrollments/{enrollment_id}/payments',
      kind: SpanKind.CLIENT,
      attributes: expect.objectContaining({
        'http.request.method': 'POST',
        'http.route': '/banking/cashin/pix/biometrics/enrollments/{enrollment_id}/payments',
        'http.response.status_code': expect.any(Number),
      }),
    });
    const bankCalls = spans.filter(
      (span) => span.kind === SpanKind.CLIENT && tree.ancestors(span).includes(run as ReadableSpan),
    );
    expect(bankCalls.length).toBeGreaterThanOrEqual(2);
    for (const span of [run, create, ...bankCalls]) expect(span?.spanContext().traceId).toBe(traceId);

    // The customer's authorization is the merchant's update, handled in the workflow under its span.
    const [authorize] = tree.named('StartWorkflowUpdate:authorize', workflowId);
    const [handled] = spans.filter((span) => span.name === 'HandleUpdate:authorize');
    expect(handled && tree.ancestors(handled)).toContain(authorize);

    // A bank webhook: the receiver's request span is above the signal it sent and the workflow's handling of
    // it.
    const [signal] = tree.named('SignalWorkflow:paymentWebhook', workflowId);
    const received = signal && tree.ancestors(signal).find((span) => span.name === 'POST /webhooks');
    expect(received).toMatchObject({
      kind: SpanKind.SERVER,
      attributes: expect.objectContaining({ 'http.route': '/webhooks', 'http.response.status_code': 202 }),
    });
    const handledSignal = spans.find(
      (span) =>
        span.name === 'HandleSignal:paymentWebhook' && signal && tree.ancestors(span).includes(signal),
    );
    expect(handledSignal?.spanContext().traceId).toBe(received?.spanContext().traceId);

    // Log lines lead to their trace: the bank call's, with its workflow, and the receiver's request.
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'bank call',
        operation: 'createBiometricPayment',
        traceId,
        spanId: http?.spanContext().spanId,
        workflowId,
        activityType: 'createBiometricPayment',
      }),
    );
    expect(lines).toContainEqual(
      expect.objectContaining({ msg: 'webhook accepted', traceId: received?.spanContext().traceId }),
    );
  });

  it(
    'a worker whose OTLP endpoint is a closed port logs one warning and the payment settles',
    async () => {
      await stack.stopWorker();
      const dir = tempDir();
      const logFile = path.join(dir, 'worker.log');
      log = createWriteStream(logFile);
      const closed = await freePort();
      worker = startCliProcess(
        ['worker'],
        workerProcessEnv(stack, {
          BANKFLOW_DATA_DIR: dir,
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${closed}`,
          // Batches leave every 200 ms, so the journey's spans fail to export in several batches.
          OTEL_BSP_SCHEDULE_DELAY: '200',
        }),
        log,
        'worker running',
      );
      await worker.ready;
      const customer = await newCustomer(stack);
      const { result: enrolled } = await enroll(stack, customer);
      await payAndSettle(stack, customer, {
        externalId: `unexported-${randomUUID()}`,
        enrollmentId: enrolled.enrollment?.id ?? '',
        amountCents: 990,
        description: 'collector down',
      });
      const warnings = await eventually(
        async () =>
          readFileSync(logFile, 'utf8')
            .split('\n')
            .filter((line) => line.includes('traces not exported')),
        (found) => found.length > 0,
      );
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain(`http://127.0.0.1:${closed}/v1/traces`);
    },
    cliTestTimeoutMs,
  );
});

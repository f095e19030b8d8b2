import { signWebhookBody } from '../src/bank/webhook-signature.js';
import type { BiometricPayment } from '../src/bank/schemas/biometric-payment.js';
import { webhookCategories, webhookHeaders, type WebhookEnvelope } from '../src/bank/schemas/webhook.js';
import type { StartPaymentInput } from '../src/starter/index.js';
import { startTunedPayment, type PaymentTuning } from '../src/starter/payments.js';
import { paymentWebhookSignal } from '../src/contract/temporal.js';
import { receivedWebhook } from '../src/webhooks/resources.js';
import { mapLimit, merchant, type Customer } from './customers.js';
import type { LoadGenerator } from './load/remote.js';
import type { SignalRequest, WebhookRequest } from './load/protocol.js';
import { throughputOf, type OpenLoopRun } from './pacing.js';
import { sampleProcess, sampleSelf, waitUntilQuiet } from './processes.js';
import { benchWebhookSecret, type BenchStack } from './stack.js';
import { median, medianRatio, summarize } from './stats.js';

export interface IngestSettings {
  /** Offered loads, events per second. */
  loads: number[];
  durationMs: number;
  rounds: number;
  /** Running payment workflows the events are spread over. */
  workflows: number;
}

export interface IngestRun {
  throughput: number;
  ok: number;
  failed: number;
  p50: number;
  p99: number;
  max: number;
  maxLagMs: number;
  /** CPU time of the receiver process per acknowledged event (receiver runs only). */
  receiverCpuMsPerEvent: number;
  /**
   * CPU time of the plain Temporal client (the load generator process) per acknowledged event (bare runs
   * only).
   */
  bareClientCpuMsPerEvent: number;
  /** CPU time of the Temporal server per acknowledged event, both modes. */
  temporalCpuMsPerEvent: number;
  /**
   * CPU the receiver (receiver runs only) and the Temporal server used over the run, in cores (1 = one core
   * busy).
   */
  receiverCores: number;
  temporalCores: number;
}

export interface IngestRow {
  offered: number;
  receiver: IngestRun[];
  bare: IngestRun[];
  median: { receiver: IngestRun; bare: IngestRun };
  /** Median over rounds of receiver / bare, each round's pair measured back to back. */
  throughputRatio: number;
  p99Ratio: number;
}

/** A payment waiting for its customer's consent for the whole benchmark, never polling the bank meanwhile. */
interface Target {
  input: StartPaymentInput & { externalId: string };
  workflowId: string;
  payment: BiometricPayment;
}

const quietWindow: PaymentTuning = {
  consentWindowMs: 3_600_000,
  polling: { firstPollAfterMs: 3_600_000, maxPollIntervalMs: 3_600_000 },
};

async function startTargets(stack: BenchStack, customer: Customer, count: number, tag: string) {
  const ctx = { client: stack.client, taskQueue: stack.taskQueue };
  return mapLimit(
    Array.from({ length: count }, (_, index) => index),
    20,
    async (index): Promise<Target> => {
      const input = {
        externalId: `bench-ingest-${tag}-${index}`,
        enrollmentId: customer.enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 10_000 + index,
        description: 'Bench ingest',
        ...merchant(stack),
      };
      const created = await startTunedPayment(ctx, input, quietWindow);
      return { input, workflowId: created.workflowId, payment: created.payment };
    },
  );
}

/**
 * Events the bank could send for these payments: each a new `initiation_document` event (distinct timestamp,
 * so no workflow drops it as a duplicate) repeating the status the payment already has, so it changes
 * nothing.
 */
function eventFactory(targets: Target[]) {
  let sequence = 0;
  const epoch = Date.now();
  return (): { target: Target; envelope: WebhookEnvelope } => {
    const index = sequence++;
    const target = targets[index % targets.length]!;
    const envelope: WebhookEnvelope = {
      category: webhookCategories.initiationDocument,
      type: 'awaiting_consent',
      ref_id: target.payment.id,
      timestamp: new Date(epoch + index).toISOString(),
      data: { ...target.payment, status: 'awaiting_consent' },
      context_type: 'enrollment',
      context_id: target.input.enrollmentId,
    };
    return { target, envelope };
  };
}

function webhookRequest(envelope: WebhookEnvelope): WebhookRequest {
  const body = JSON.stringify(envelope);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      [webhookHeaders.signature]: signWebhookBody(body, benchWebhookSecret),
    },
  };
}

function signalRequest(stack: BenchStack, target: Target, envelope: WebhookEnvelope): SignalRequest {
  const event = receivedWebhook(envelope);
  return {
    workflowId: target.workflowId,
    workflowType: 'biometricPaymentWorkflow',
    taskQueue: stack.taskQueue,
    args: [target.input],
    signal: paymentWebhookSignal.name,
    signalArgs: [event],
  };
}

function describeRun(
  run: OpenLoopRun,
  cpuMs: { receiver: number; bareClient: number; temporal: number },
): IngestRun {
  const latency = summarize(run.latenciesMs);
  return {
    throughput: throughputOf(run),
    ok: run.ok,
    failed: run.failed,
    p50: latency.p50,
    p99: latency.p99,
    max: latency.max,
    maxLagMs: run.maxLagMs,
    receiverCpuMsPerEvent: cpuMs.receiver / run.ok,
    bareClientCpuMsPerEvent: cpuMs.bareClient / run.ok,
    temporalCpuMsPerEvent: cpuMs.temporal / run.ok,
    receiverCores: cpuMs.receiver / run.elapsedMs,
    temporalCores: cpuMs.temporal / run.elapsedMs,
  };
}

const medianRun = (runs: IngestRun[]): IngestRun => ({
  throughput: median(runs.map((run) => run.throughput)),
  ok: median(runs.map((run) => run.ok)),
  failed: median(runs.map((run) => run.failed)),
  p50: median(runs.map((run) => run.p50)),
  p99: median(runs.map((run) => run.p99)),
  max: median(runs.map((run) => run.max)),
  maxLagMs: median(runs.map((run) => run.maxLagMs)),
  receiverCpuMsPerEvent: median(runs.map((run) => run.receiverCpuMsPerEvent)),
  bareClientCpuMsPerEvent: median(runs.map((run) => run.bareClientCpuMsPerEvent)),
  temporalCpuMsPerEvent: median(runs.map((run) => run.temporalCpuMsPerEvent)),
  receiverCores: median(runs.map((run) => run.receiverCores)),
  temporalCores: median(runs.map((run) => run.temporalCores)),
});

/**
 * CPU time so far of the receiver, the load generator and the Temporal server (NaN when it was not found).
 */
const cpuOf = (stack: BenchStack, load: LoadGenerator) => ({
  receiver: sampleProcess(stack.receiverPid).cpuMs,
  generator: sampleProcess(load.pid).cpuMs,
  temporal: stack.temporalPid === undefined ? Number.NaN : sampleProcess(stack.temporalPid).cpuMs,
});

/**
 * Benchmark 1: signed webhooks for running payment workflows, offered open-loop to the receiver over HTTP,
 * next to a bare `signalWithStart` loop (plain Temporal client, no codec) delivering the same events to the
 * same workflows on the same server. The worker handles both the same way, so the difference is the
 * receiver's path: HTTP, signature check, parsing, routing and payload encryption, in the `bankflow webhooks`
 * process.
 */
export async function benchIngest(
  stack: BenchStack,
  load: LoadGenerator,
  customer: Customer,
  settings: IngestSettings,
  progress: (line: string) => void,
): Promise<IngestRow[]> {
  const targets = await startTargets(stack, customer, settings.workflows, `${Date.now()}`);
  const nextEvent = eventFactory(targets);
  const offer = async (mode: 'receiver' | 'bare', ratePerSecond: number, durationMs: number) => {
    const count = Math.floor((ratePerSecond * durationMs) / 1000);
    const events = Array.from({ length: count }, nextEvent);
    // Both ends must be idle: the worker finishing the previous run's signals, the receiver its requests.
    await waitUntilQuiet(sampleSelf);
    await waitUntilQuiet(() => sampleProcess(stack.receiverPid));
    const before = cpuOf(stack, load);
    const run =
      mode === 'receiver'
        ? await load.run({
            kind: 'webhooks',
            url: `${stack.receiverUrl}/webhooks`,
            ratePerSecond,
            durationMs,
            requests: events.map(({ envelope }) => webhookRequest(envelope)),
          })
        : await load.run({
            kind: 'signals',
            address: stack.address,
            namespace: stack.namespace,
            ratePerSecond,
            durationMs,
            requests: events.map(({ target, envelope }) => signalRequest(stack, target, envelope)),
          });
    const after = cpuOf(stack, load);
    return describeRun(run, {
      receiver: mode === 'receiver' ? after.receiver - before.receiver : Number.NaN,
      bareClient: mode === 'bare' ? after.generator - before.generator : Number.NaN,
      temporal: after.temporal - before.temporal,
    });
  };

  await offer('receiver', 50, 1_000);
  await offer('bare', 50, 1_000);
  const rows: IngestRow[] = [];
  for (const offered of settings.loads) {
    const receiver: IngestRun[] = [];
    const bare: IngestRun[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      const order = round % 2 === 0 ? (['receiver', 'bare'] as const) : (['bare', 'receiver'] as const);
      for (const mode of order) {
        const run = await offer(mode, offered, settings.durationMs);
        (mode === 'receiver' ? receiver : bare).push(run);
        progress(
          `ingest ${offered}/s round ${round + 1} ${mode}: ${run.throughput.toFixed(0)}/s p99 ${run.p99.toFixed(0)} ms`,
        );
      }
    }
    rows.push({
      offered,
      receiver,
      bare,
      median: { receiver: medianRun(receiver), bare: medianRun(bare) },
      throughputRatio: medianRatio(
        receiver.map((run) => run.throughput),
        bare.map((run) => run.throughput),
      ),
      p99Ratio: medianRatio(
        receiver.map((run) => run.p99),
        bare.map((run) => run.p99),
      ),
    });
  }
  return rows;
}

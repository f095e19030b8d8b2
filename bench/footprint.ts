import { setTimeout as sleep } from 'node:timers/promises';
import { startTunedPayment } from '../src/starter/payments.js';
import { mapLimit, merchant, type Customer } from './customers.js';
import { cpuShare, sampleProcess, startChildWorker, waitUntilQuiet, watchProcess } from './processes.js';
import type { BenchStack } from './stack.js';
import { median } from './stats.js';

export interface FootprintSettings {
  /** How many payments wait at each level, ascending: each level adds payments to the one before. */
  levels: number[];
  /** How long each steady state is sampled. */
  measureMs: number;
  /** Payments being started at once. */
  startConcurrency: number;
}

export interface SteadyState {
  rssBytes: number;
  /** Share of one core. */
  cpu: number;
}

export interface FootprintLevel {
  workflows: number;
  /** Open payment workflows on the worker's task queue, as Temporal's visibility counts them. */
  open: number;
  waiting: SteadyState;
  /** Highest RSS while this level's payments were being started, how long that took, and how many. */
  rampPeakRssBytes: number;
  rampMs: number;
  started: number;
  /** RSS above idle per waiting payment. */
  perWorkflowBytes: number;
}

export interface FootprintResult {
  measureMs: number;
  idle: SteadyState;
  levels: FootprintLevel[];
}

async function steady(pid: number, measureMs: number): Promise<SteadyState> {
  const watch = watchProcess(pid, 250);
  await sleep(measureMs);
  const samples = watch.stop();
  return {
    rssBytes: median(samples.map((sample) => sample.rssBytes)),
    cpu: cpuShare(samples[0]!, samples.at(-1)!),
  };
}

/**
 * The worker's heaps as deployment.md sizes a worker for the 300 MB target: node's own arguments cap both V8
 * heaps (the main thread's and the workflow thread's), and the workflow cache is sized from that cap.
 */
export const footprintWorkerNodeArgs = ['--max-old-space-size=128', '--max-semi-space-size=2'];

/**
 * Benchmark 4: a `bankflow worker` process, idle, then holding each level's number of open payments that wait
 * for their customer's consent and the bank's webhooks (the merchant's own polling settings push bank polls
 * past the measurement). One process climbs every level, as a worker's load grows.
 */
export async function benchFootprint(
  stack: BenchStack,
  customer: Customer,
  settings: FootprintSettings,
  progress: (line: string) => void,
): Promise<FootprintResult> {
  const worker = await startChildWorker(stack, `bench-footprint-${Date.now()}`, footprintWorkerNodeArgs);
  try {
    const quiet = () => waitUntilQuiet(() => sampleProcess(worker.pid), { share: 0.05, timeoutMs: 60_000 });
    await quiet();
    const idle = await steady(worker.pid, settings.measureMs);
    progress(`footprint idle: ${(idle.rssBytes / 2 ** 20).toFixed(0)} MB`);

    const ctx = { client: stack.client, taskQueue: worker.taskQueue };
    const tag = Date.now();
    const levels: FootprintLevel[] = [];
    let open = 0;
    for (const workflows of settings.levels) {
      const watch = watchProcess(worker.pid, 100);
      const started = performance.now();
      await mapLimit(
        Array.from({ length: workflows - open }, (_, index) => open + index),
        settings.startConcurrency,
        (index) =>
          startTunedPayment(
            ctx,
            {
              externalId: `bench-footprint-${tag}-${index}`,
              enrollmentId: customer.enrollmentId,
              deviceId: customer.deviceId,
              amountCents: 20_000 + index,
              description: 'Bench footprint',
              ...merchant(stack),
            },
            {
              consentWindowMs: 3_600_000,
              polling: { firstPollAfterMs: 3_600_000, maxPollIntervalMs: 3_600_000 },
            },
          ),
      );
      const rampMs = performance.now() - started;
      const rampPeakRssBytes = Math.max(...watch.stop().map((sample) => sample.rssBytes));
      progress(`footprint: ${workflows - open} payments started in ${(rampMs / 1000).toFixed(1)} s`);

      await quiet();
      const waiting = await steady(worker.pid, settings.measureMs);
      const { count } = await stack.client.workflow.count(
        `TaskQueue = '${worker.taskQueue}' AND ExecutionStatus = 'Running'`,
      );
      levels.push({
        workflows,
        open: count,
        waiting,
        rampPeakRssBytes,
        rampMs,
        started: workflows - open,
        perWorkflowBytes: (waiting.rssBytes - idle.rssBytes) / workflows,
      });
      progress(`footprint: ${workflows} waiting: ${(waiting.rssBytes / 2 ** 20).toFixed(0)} MB`);
      open = workflows;
    }
    return { measureMs: settings.measureMs, idle, levels };
  } finally {
    await worker.stop();
  }
}

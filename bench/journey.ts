import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { WorkflowIdConflictPolicy } from '@temporalio/common';
import { authorizePayment, waitForPaymentResult } from '../src/starter/index.js';
import { startTunedPayment } from '../src/starter/payments.js';
import { workflowIds } from '../src/contract/ids.js';
import { cpuPer, medianCpu, stackCpuMs, type CpuSplit } from './cpu.js';
import { merchant, type Customer } from './customers.js';
import { runCosts, stepsOf, type RunCost } from './history.js';
import {
  sampleProcess,
  sampleSelf,
  startChildWorker,
  startSkeletonWorker,
  waitUntilQuiet,
  type ChildWorker,
} from './processes.js';
import { authorizeUpdate, createdUpdate, eventSignal, skeletonJourney } from './skeleton/workflows.js';
import { settlementDelayMs, type BenchStack } from './stack.js';
import { median, medianRatio, summarize } from './stats.js';

export interface JourneySettings {
  /** Journeys started at once; each has a customer of its own (a FIDO counter must only grow). */
  concurrency: number;
  rounds: number;
  /** A larger batch, run after the rounds at `concurrency`, to see how the cost grows with the work. */
  growthConcurrency?: number;
  growthRounds?: number;
}

export interface JourneyBatch {
  journeysPerSecond: number;
  p50: number;
  p99: number;
  /** Journeys whose Pix cash-in never reached the workflow, which then waited `cashInWaitMs` for it. */
  cashInMissed: number;
  /** CPU time per journey of the side's worker process, the receiver and the Temporal server. */
  cpuMsPerJourney: CpuSplit;
  /**
   * Activities of a journey (bank calls and the skeleton's stand-ins), median of a few spread over the batch.
   */
  activitiesPerJourney: number;
}

export interface JourneySide {
  batches: JourneyBatch[];
  median: JourneyBatch;
  /** One journey's run, counted from its history. */
  cost: RunCost;
  steps: number;
}

/**
 * The main concurrency and the larger one, measured in the same rounds. The floor runs twice: with the SDK's
 * default workflow cache (thousands here, so it never replays) and with bankflow's (`cacheSize`), which a
 * batch larger than the cache makes evict and replay as bankflow's worker does.
 */
export interface JourneyGrowth {
  cacheSize: number;
  small: GrowthSize;
  large: GrowthSize;
}

export interface JourneyResult {
  concurrency: number;
  bankflow: JourneySide;
  floor: JourneySide;
  /** Medians over rounds of bankflow / floor, each round's pair measured back to back. */
  p50Ratio: number;
  throughputRatio: number;
  /** CPU per journey of the side's worker, the receiver and the Temporal server. */
  cpuRatio: number;
  /** Of the median journey's history: how many events a journey weighs on the server. */
  eventsRatio: number;
  /** bankflow's median p50 minus the floor's. */
  costPerJourneyMs: number;
  costPerStepMs: number;
  growth?: JourneyGrowth;
}

let sequence = 0;
const nextTag = () => `${Date.now()}-${++sequence}`;

/**
 * create -> options -> authorize -> webhooks -> settled, as the merchant backend and the customer drive it.
 */
export async function bankflowJourney(
  stack: BenchStack,
  taskQueue: string,
  customer: Customer,
  externalId: string,
): Promise<boolean> {
  const ctx = { client: stack.client, taskQueue };
  const created = await startTunedPayment(
    ctx,
    {
      externalId,
      enrollmentId: customer.enrollmentId,
      deviceId: customer.deviceId,
      amountCents: 12_345,
      description: 'Bench journey',
      ...merchant(stack),
    },
    { cashInWaitMs: 10_000 },
  );
  const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
  const authorized = await authorizePayment(ctx, { externalId, assertion });
  if (!authorized.ok) throw new Error(`authorization refused: ${authorized.reason}`);
  const result = await waitForPaymentResult(ctx, { externalId });
  if (result.outcome !== 'settled') throw new Error(`journey ended ${result.outcome}: ${result.reason}`);
  return result.evidence.some((item) => item.source === 'cash-in webhook');
}

/**
 * The same interactions with the skeleton; the driver sends the five webhooks' signals when the bank would,
 * settlement included.
 */
async function floorJourney(stack: BenchStack, taskQueue: string, workflowId: string): Promise<boolean> {
  const { client } = stack.skeleton;
  await client.workflow.executeUpdateWithStart(createdUpdate, {
    startWorkflowOperation: new WithStartWorkflowOperation(skeletonJourney, {
      workflowId,
      taskQueue,
      workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
    }),
  });
  const handle = client.workflow.getHandle<typeof skeletonJourney>(workflowId);
  const signals = [handle.signal(eventSignal, 'created'), handle.signal(eventSignal, 'awaiting_consent')];
  await handle.executeUpdate(authorizeUpdate, { args: ['assertion'] });
  signals.push(handle.signal(eventSignal, 'awaiting_payment'));
  await sleep(settlementDelayMs);
  signals.push(handle.signal(eventSignal, 'settled'), handle.signal(eventSignal, 'cash-in'));
  await Promise.all(signals);
  await handle.result();
  return true;
}

/** Journeys whose histories are counted, spread over a batch: enough to see polls appear, cheap to fetch. */
const sampledJourneys = 5;

/**
 * N journeys at once: their latencies and the batch's throughput. A journey answers whether it heard the
 * cash-in; `workflowOf` names the workflow of journey `index`, for counting its activities once the batch is
 * done.
 */
async function batch(
  count: number,
  run: { stack: BenchStack; client: Client; worker: ChildWorker },
  journey: (index: number) => Promise<boolean>,
  workflowOf: (index: number) => string,
): Promise<JourneyBatch> {
  const { stack, worker } = run;
  const cpuBefore = stackCpuMs(stack, worker.pid);
  const started = performance.now();
  const journeys = await Promise.all(
    Array.from({ length: count }, async (_, index) => {
      const at = performance.now();
      const heard = await journey(index);
      return { latency: performance.now() - at, heard };
    }),
  );
  const latency = summarize(journeys.map((done) => done.latency));
  const cpuMsPerJourney = cpuPer(cpuBefore, stackCpuMs(stack, worker.pid), count);
  const sampled = Array.from({ length: Math.min(sampledJourneys, count) }, (_, index) =>
    Math.floor((index * count) / Math.min(sampledJourneys, count)),
  );
  const activities = await Promise.all(
    sampled.map(async (index) =>
      (await runCosts(run.client, workflowOf(index))).reduce((sum, cost) => sum + cost.activities, 0),
    ),
  );
  return {
    journeysPerSecond: (count * 1000) / (performance.now() - started),
    p50: latency.p50,
    p99: latency.p99,
    cashInMissed: journeys.filter((done) => !done.heard).length,
    cpuMsPerJourney,
    activitiesPerJourney: median(activities),
  };
}

/**
 * The cost of the batch's median journey by history events: how many events a journey takes depends on how
 * its webhooks fell into workflow tasks, so one journey's history is one draw.
 */
async function typicalRunCost(client: Client, workflowIds: string[]): Promise<RunCost> {
  const costs = await Promise.all(workflowIds.map(async (id) => (await runCosts(client, id))[0]));
  const counted = costs
    .filter((cost): cost is RunCost => cost !== undefined)
    .sort((a, b) => a.events - b.events);
  const typical = counted[Math.floor((counted.length - 1) / 2)];
  if (!typical) throw new Error('no journey history to count');
  return typical;
}

/** Medians over rounds, except `cashInMissed`, which is the total. */
const medianBatch = (batches: JourneyBatch[]): JourneyBatch => ({
  journeysPerSecond: median(batches.map((b) => b.journeysPerSecond)),
  p50: median(batches.map((b) => b.p50)),
  p99: median(batches.map((b) => b.p99)),
  cashInMissed: batches.reduce((sum, b) => sum + b.cashInMissed, 0),
  cpuMsPerJourney: medianCpu(batches.map((b) => b.cpuMsPerJourney)),
  activitiesPerJourney: median(batches.map((b) => b.activitiesPerJourney)),
});

/** The sides a growth batch runs: bankflow, the floor, and the floor at bankflow's workflow cache. */
export type GrowthSide = 'bankflow' | 'floor' | 'floorAtCache';

/** Batches of one size, for the cost-growth line. */
export interface GrowthSize {
  concurrency: number;
  batches: Record<GrowthSide, JourneyBatch[]>;
  median: Record<GrowthSide, JourneyBatch>;
}

/**
 * The cost-growth batches: in every round, each side (bankflow and both floors) at the main concurrency and
 * at the larger one, back to back (orders flipping each round). Pairing the sizes in time matters: every
 * journey leaves a closed workflow behind, and what the server spends per journey can depend on how many
 * there are, so the small batches of the main rounds, run earlier, would flatter the comparison.
 * `benchJourney` runs none when the settings ask for none or there are too few customers (each journey needs
 * one of its own).
 */
async function growthBatches(
  settings: JourneySettings,
  sizes: { small: number; large: number; cacheSize: number },
  run: Record<GrowthSide, (size: number) => Promise<JourneyBatch>>,
  progress: (line: string) => void,
): Promise<JourneyGrowth> {
  const { large, cacheSize } = sizes;
  const batches = new Map<string, JourneyBatch[]>();
  const sides: GrowthSide[] = ['bankflow', 'floor', 'floorAtCache'];
  for (let round = 0; round < (settings.growthRounds ?? settings.rounds); round++) {
    const flip = <T>(list: T[]) => (round % 2 === 0 ? list : [...list].reverse());
    for (const side of flip(sides)) {
      for (const size of flip([sizes.small, large])) {
        const result = await run[side](size);
        const key = `${side}-${size}`;
        batches.set(key, [...(batches.get(key) ?? []), result]);
        progress(
          `journeys x${size} round ${round + 1} ${side}: ${result.journeysPerSecond.toFixed(1)}/s p50 ${result.p50.toFixed(0)} ms, ${result.cpuMsPerJourney.total.toFixed(0)} CPU ms, ${result.activitiesPerJourney} activities per journey`,
        );
      }
    }
  }
  const sizeOf = (concurrency: number): GrowthSize => {
    const of = (side: GrowthSide) => batches.get(`${side}-${concurrency}`) ?? [];
    const bySide = <T>(value: (side: GrowthSide) => T) =>
      Object.fromEntries(sides.map((side) => [side, value(side)])) as Record<GrowthSide, T>;
    return { concurrency, batches: bySide(of), median: bySide((side) => medianBatch(of(side))) };
  };
  return { cacheSize, small: sizeOf(sizes.small), large: sizeOf(large) };
}

/**
 * Benchmark 2: full payment journeys against the zero-latency sandbox, next to the skeleton workflow with the
 * same activities, updates and signals on the same server (the engine's floor).
 */
export async function benchJourney(
  stack: BenchStack,
  customers: Customer[],
  settings: JourneySettings,
  progress: (line: string) => void,
): Promise<JourneyResult> {
  const count = Math.min(settings.concurrency, customers.length);
  const large = settings.growthConcurrency;
  const growth = large !== undefined && large <= customers.length;
  // Each side's worker is a process of its own, as deployed: the driver and the sandbox bank stay in this
  // process.
  const queue = randomUUID();
  const [bankflowWorker, floorWorker, floorAtCacheWorker] = await Promise.all([
    startChildWorker(stack, `bench-journey-${queue}`),
    startSkeletonWorker(stack, `bench-skeleton-${queue}`),
    growth
      ? startSkeletonWorker(stack, `bench-skeleton-cached-${queue}`, {
          maxCachedWorkflows: stack.workflowCacheSize,
        })
      : undefined,
  ]);
  const workers = { bankflow: bankflowWorker, floor: floorWorker, floorAtCache: floorAtCacheWorker };
  try {
    return await journeyRounds(stack, customers, { count, settings, progress }, workers);
  } finally {
    await Promise.all(
      [bankflowWorker, floorWorker, floorAtCacheWorker].flatMap((worker) => (worker ? [worker.stop()] : [])),
    );
  }
}

async function journeyRounds(
  stack: BenchStack,
  customers: Customer[],
  {
    count,
    settings,
    progress,
  }: { count: number; settings: JourneySettings; progress: (line: string) => void },
  workers: { bankflow: ChildWorker; floor: ChildWorker; floorAtCache: ChildWorker | undefined },
): Promise<JourneyResult> {
  // The workflow ids of each side's latest batch.
  let lastBankflow: string[] = [];
  let lastFloor: string[] = [];
  const quiet = (worker: ChildWorker) =>
    Promise.all([waitUntilQuiet(sampleSelf), waitUntilQuiet(() => sampleProcess(worker.pid))]);
  const runBankflow = async (size = count) => {
    const tag = nextTag();
    lastBankflow = customers.slice(0, size).map((_, index) => `bench-journey-${tag}-${index}`);
    const ids = lastBankflow;
    await quiet(workers.bankflow);
    return batch(
      size,
      { stack, client: stack.client, worker: workers.bankflow },
      (index) => bankflowJourney(stack, workers.bankflow.taskQueue, customers[index]!, ids[index]!),
      (index) => workflowIds.payment(ids[index]!),
    );
  };
  const runSkeleton = async (worker: ChildWorker, size: number) => {
    const tag = nextTag();
    const ids = customers.slice(0, size).map((_, index) => `skeleton-${tag}-${index}`);
    await quiet(worker);
    const result = await batch(
      size,
      { stack, client: stack.skeleton.client, worker },
      (index) => floorJourney(stack, worker.taskQueue, ids[index]!),
      (index) => ids[index]!,
    );
    return { ids, result };
  };
  const runFloor = async (size = count) => {
    const { ids, result } = await runSkeleton(workers.floor, size);
    lastFloor = ids;
    return result;
  };

  await runBankflow();
  await runFloor();
  const bankflow: JourneyBatch[] = [];
  const floor: JourneyBatch[] = [];
  for (let round = 0; round < settings.rounds; round++) {
    const order = round % 2 === 0 ? [runBankflow, runFloor] : [runFloor, runBankflow];
    for (const run of order) {
      const result = await run();
      (run === runBankflow ? bankflow : floor).push(result);
      progress(
        `journeys round ${round + 1} ${run === runBankflow ? 'bankflow' : 'floor'}: ${result.journeysPerSecond.toFixed(1)}/s p50 ${result.p50.toFixed(0)} ms`,
      );
    }
  }

  // Counted from the main rounds' last batches, before the growth batches run.
  const bankflowCost = await typicalRunCost(
    stack.client,
    lastBankflow.map((id) => workflowIds.payment(id)),
  );
  const floorCost = await typicalRunCost(stack.skeleton.client, lastFloor);
  const { floorAtCache } = workers;
  const growth =
    settings.growthConcurrency !== undefined && floorAtCache
      ? await growthBatches(
          settings,
          { small: count, large: settings.growthConcurrency, cacheSize: stack.workflowCacheSize },
          {
            bankflow: runBankflow,
            floor: runFloor,
            floorAtCache: async (size) => (await runSkeleton(floorAtCache, size)).result,
          },
          progress,
        )
      : undefined;
  const side = (batches: JourneyBatch[], cost: RunCost): JourneySide => ({
    batches,
    median: medianBatch(batches),
    cost,
    steps: stepsOf(cost),
  });
  const result: JourneyResult = {
    concurrency: count,
    bankflow: side(bankflow, bankflowCost),
    floor: side(floor, floorCost),
    p50Ratio: medianRatio(
      bankflow.map((b) => b.p50),
      floor.map((b) => b.p50),
    ),
    throughputRatio: medianRatio(
      bankflow.map((b) => b.journeysPerSecond),
      floor.map((b) => b.journeysPerSecond),
    ),
    cpuRatio: medianRatio(
      bankflow.map((b) => b.cpuMsPerJourney.total),
      floor.map((b) => b.cpuMsPerJourney.total),
    ),
    eventsRatio: bankflowCost.events / floorCost.events,
    costPerJourneyMs: 0,
    costPerStepMs: 0,
    ...(growth ? { growth } : {}),
  };
  result.costPerJourneyMs = result.bankflow.median.p50 - result.floor.median.p50;
  result.costPerStepMs = result.costPerJourneyMs / result.bankflow.steps;
  return result;
}

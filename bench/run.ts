import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchCost, type CostSettings } from './cost.js';
import { enrollCustomer, mapLimit } from './customers.js';
import { waitingGrowthPoints } from './footprint-report.js';
import { benchFootprint, type FootprintSettings } from './footprint.js';
import { benchIngest, type IngestSettings } from './ingest.js';
import { benchParallelSync, type ParallelSyncSettings } from './parallel-sync.js';
import { benchPolls, type PollsSettings } from './polls.js';
import { benchQueues, type QueuesSettings } from './queues.js';
import { benchJourney, type JourneySettings } from './journey.js';
import { startLoadGenerator } from './load/remote.js';
import { checkTargets, renderReport, type BenchResults } from './report.js';
import { startBenchStack } from './stack.js';
import { benchSync, type SyncSettings } from './sync.js';

const benchmarks = ['ingest', 'journey', 'sync', 'footprint', 'queues', 'polls', 'cost'] as const;
type Benchmark = (typeof benchmarks)[number];

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '3' },
    only: { type: 'string', default: benchmarks.join(',') },
    quick: { type: 'boolean', default: false },
    'keep-logs': { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    'worker-heap-mb': { type: 'string' },
    'results-dir': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(`npm run bench [-- --rounds N] [--only ${benchmarks.join(',')}] [--quick] [--keep-logs] [--profile] [--worker-heap-mb N] [--results-dir DIR]

Starts its own Temporal dev server, sandbox bank, receiver and workers, runs each benchmark next to its baseline,
prints the tables and writes bench/results/<timestamp>.json. --rounds sets the rounds of each benchmark (the
payment journey, whose rounds are short, runs twice as many). --quick is a smoke test with tiny loads;
--keep-logs keeps the components' logs (kept anyway when a benchmark fails); --profile runs the \`bankflow worker\`
children with --cpu-prof and keeps their profiles with the logs (profile this process itself with
\`node --cpu-prof --import tsx bench/run.ts\`). --worker-heap-mb caps the V8 heap of the \`bankflow worker\` children
(--max-old-space-size), as an operator would. --results-dir writes the JSON there instead of bench/results/.
TEMPORAL_MAX_CACHED_WORKFLOWS, when set in the environment, reaches every \`bankflow worker\` child.`);
  process.exit(0);
}

const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);
const selected = new Set(values.only.split(',').map((name) => name.trim()));
for (const name of selected) {
  if (!(benchmarks as readonly string[]).includes(name)) throw new Error(`--only: unknown benchmark ${name}`);
}
const wanted = (name: Benchmark) => selected.has(name);

const settings = values.quick
  ? {
      ingest: { loads: [20, 50], durationMs: 1_000, rounds, workflows: 10 } satisfies IngestSettings,
      journey: { concurrency: 4, rounds, growthConcurrency: 8, growthRounds: 1 } satisfies JourneySettings,
      sync: {
        cases: [
          { attempts: 200, bankLatencyMs: 0 },
          { attempts: 1_000, bankLatencyMs: 0 },
          { attempts: 200, bankLatencyMs: 50 },
        ],
        rounds,
        recurrences: 2,
      } satisfies SyncSettings,
      parallelSync: {
        attempts: 3_000,
        bankLatencyMs: 100,
        requestsPerSecond: 60,
        workers: 2,
        recurrences: 2,
        rounds: 1,
      } satisfies ParallelSyncSettings,
      footprint: { levels: [20, 50], measureMs: 2_000, startConcurrency: 25 } satisfies FootprintSettings,
      queues: {
        requestsPerSecond: 10,
        interactiveSharePercent: 50,
        workers: 2,
        customers: 2,
        durationMs: 15_000,
      } satisfies QueuesSettings,
      polls: {
        requestsPerSecond: 20,
        pollReadsPerSecond: 5,
        workers: 1,
        payments: 200,
        measureMs: 50_000,
        baselinePayments: 50,
        baselineMeasureMs: 20_000,
        cachedWorkflows: 100,
      } satisfies PollsSettings,
      cost: { payments: 3, drainMs: 2_000 } satisfies CostSettings,
    }
  : {
      ingest: {
        loads: [50, 200, 500, 1_000],
        durationMs: 3_000,
        rounds,
        workflows: 200,
      } satisfies IngestSettings,
      journey: {
        concurrency: 20,
        rounds: rounds * 2,
        growthConcurrency: 100,
        growthRounds: rounds,
      } satisfies JourneySettings,
      sync: {
        cases: [
          { attempts: 1_000, bankLatencyMs: 0 },
          { attempts: 10_000, bankLatencyMs: 0 },
          { attempts: 100_000, bankLatencyMs: 0 },
          { attempts: 1_000, bankLatencyMs: 100 },
          { attempts: 10_000, bankLatencyMs: 100 },
        ],
        rounds,
        recurrences: 10,
      } satisfies SyncSettings,
      parallelSync: {
        attempts: 100_000,
        bankLatencyMs: 100,
        requestsPerSecond: 60,
        workers: 2,
        recurrences: 10,
        rounds,
      } satisfies ParallelSyncSettings,
      footprint: {
        levels: [1_000, 10_000],
        measureMs: 10_000,
        startConcurrency: 50,
      } satisfies FootprintSettings,
      queues: {
        requestsPerSecond: 20,
        interactiveSharePercent: 50,
        workers: 2,
        customers: 4,
        durationMs: 60_000,
      } satisfies QueuesSettings,
      polls: {
        requestsPerSecond: 60,
        pollReadsPerSecond: 20,
        workers: 1,
        payments: 10_000,
        measureMs: 600_000,
        baselinePayments: 1_000,
        baselineMeasureMs: 180_000,
        // About the heap-sized default at V8's own heap limit here (docs/performance.md, "Worker memory").
        cachedWorkflows: 2_000,
      } satisfies PollsSettings,
      cost: { payments: 10, drainMs: 2_000 } satisfies CostSettings,
    };

const began = performance.now();
const progress = (line: string) =>
  console.log(`[${((performance.now() - began) / 1000).toFixed(0).padStart(4)} s] ${line}`);

const results: BenchResults = {
  startedAt: new Date().toISOString(),
  durationMs: 0,
  machine: {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: os.totalmem() / 2 ** 30,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg(),
  },
  settings: { ...settings, only: [...selected] },
};

progress('starting the Temporal dev server, sandbox bank, receiver and workers');
const workerHeapMb = values['worker-heap-mb'] === undefined ? undefined : Number(values['worker-heap-mb']);
if (workerHeapMb !== undefined && (!Number.isInteger(workerHeapMb) || workerHeapMb < 16))
  throw new Error(
    `--worker-heap-mb must be a whole number of MB (16 or more), got ${values['worker-heap-mb']}`,
  );
const stack = await startBenchStack({ profile: values.profile, workerHeapMb });
const load = startLoadGenerator();
let failed = false;
try {
  const needsJourneyCustomers = wanted('journey');
  const needsIdleCustomer = wanted('ingest') || wanted('footprint');
  const journeyCustomers = Math.max(settings.journey.concurrency, settings.journey.growthConcurrency);
  const count =
    (needsJourneyCustomers ? journeyCustomers : 0) + (needsIdleCustomer ? 1 : 0) + (wanted('cost') ? 1 : 0);
  progress(`enrolling ${count} customers`);
  const customers = await mapLimit(
    Array.from({ length: count }, (_, index) => index),
    5,
    () => enrollCustomer(stack),
  );
  const costCustomer = wanted('cost') ? customers.pop() : undefined;
  const idleCustomer = needsIdleCustomer ? customers.pop() : undefined;

  // First, while the namespace holds only the customers' enrollments: its windows count every execution
  // touched.
  if (wanted('cost') && costCustomer) {
    results.cost = await benchCost(stack, costCustomer, settings.cost, progress);
  }

  if (wanted('ingest') && idleCustomer) {
    const rows = await benchIngest(stack, load, idleCustomer, settings.ingest, progress);
    results.ingest = { settings: settings.ingest, rows };
  }
  if (wanted('journey')) {
    const journey = await benchJourney(stack, customers, settings.journey, progress);
    results.journey = { ...journey, rounds: settings.journey.rounds };
  }
  if (wanted('sync')) {
    const rows = await benchSync(stack, settings.sync, progress);
    results.sync = { rounds, recurrences: settings.sync.recurrences, rows };
    results.parallelSync = await benchParallelSync(stack, settings.parallelSync, progress);
  }
  if (wanted('footprint') && idleCustomer) {
    results.footprint = await benchFootprint(stack, idleCustomer, settings.footprint, progress);
    results.waitingGrowth = waitingGrowthPoints(results.footprint);
  }
  if (wanted('queues')) results.queues = await benchQueues(stack, settings.queues, progress);
  if (wanted('polls')) results.polls = await benchPolls(stack, settings.polls, progress);
} catch (error) {
  failed = true;
  console.error(
    `benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  console.error(`logs kept in ${stack.workDir}`);
} finally {
  await load.stop();
  const keep = values['keep-logs'] || values.profile;
  await stack.stop({ keepFiles: failed || keep });
  if (keep) console.log(`logs kept in ${stack.workDir}`);
}

results.durationMs = performance.now() - began;
console.log(`\n${renderReport(results)}\n`);
const resultsDir = values['results-dir'] ?? fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, `${results.startedAt.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ ...results, targets: checkTargets(results) }, null, 2)}\n`);
console.log(`results written to ${path.relative(process.cwd(), file)}`);
process.exit(failed ? 1 : 0);

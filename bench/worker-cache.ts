import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import v8 from 'node:v8';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils.js';
import proto, { type temporal } from '@temporalio/proto';
import { DefaultLogger, Worker } from '@temporalio/worker';
import { pino } from 'pino';
import { developmentEncryptionKeys } from '../src/development.js';
import { bankflowDataConverter } from '../src/temporal/data-converter.js';
import { parseEncryptionKeys } from '../src/temporal/encryption.js';
import { installTemporalRuntime } from '../src/temporal/runtime.js';
import { cachedWorkflowsForHeap } from '../src/temporal/worker-defaults.js';
import { workflowSpanSinks } from '../src/tracing/temporal.js';
import { bundleWorkflows } from '../src/workflow-bundle.js';
import { fixed, table } from './report.js';
import { median } from './stats.js';

/**
 * What a workflow cache miss costs: recorded journeys (test/replay/histories) replayed on the SDK's replay
 * worker, whole and cut at each of their workflow tasks, which is what a worker whose cache no longer holds
 * the journey replays when that task arrives.
 */
const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '7' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(`npm run bench:worker-cache [-- --rounds N]

Replays recorded payment and enrollment journeys N rounds (default 7): each whole, and cut at each of its workflow
tasks, as a worker replays a journey its cache evicted when the journey's next task comes. Prints the medians, and
the workflow cache bankflow sizes from the V8 heap limit.`);
  process.exit(0);
}
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1)
  throw new Error(`--rounds must be a positive integer, got ${values.rounds}`);

const journeys = ['payment-settled', 'payment-refused-then-settled', 'enrollment-refused-then-authorized'];
const EventType = proto.temporal.api.enums.v1.EventType;
type History = temporal.api.history.v1.IHistory;

/** The history as a worker whose cache missed receives it at each workflow task after the first. */
function cutsAtTasks(history: History): History[] {
  const events = history.events ?? [];
  const cuts: History[] = [];
  events.forEach((event, index) => {
    const completed = events[index + 1]?.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED;
    if (event.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_STARTED && completed && index > 3) {
      cuts.push({ events: events.slice(0, index + 1) });
    }
  });
  return cuts;
}

interface Replay {
  journey: string;
  kind: 'whole' | 'cut';
  history: History;
}

/**
 * Replays each one after the other on one replay worker, as a worker's one workflow thread replays what it
 * missed; milliseconds from handing each over to its result.
 */
async function timeReplays(
  replays: Replay[],
  workflowBundle: Awaited<ReturnType<typeof bundleWorkflows>>,
): Promise<number[]> {
  const handedAt: number[] = [];
  async function* feed() {
    for (const [index, replay] of replays.entries()) {
      handedAt[index] = performance.now();
      yield { workflowId: `${replay.journey}-${index}`, history: replay.history };
    }
  }
  const elapsed: number[] = [];
  const results = Worker.runReplayHistories(
    {
      workflowBundle,
      dataConverter: bankflowDataConverter(parseEncryptionKeys(developmentEncryptionKeys)),
      sinks: workflowSpanSinks(undefined),
    },
    feed(),
  );
  for await (const result of results) {
    if (result.error) throw new Error(`${result.workflowId} did not replay: ${result.error.message}`);
    elapsed.push(performance.now() - (handedAt[elapsed.length] ?? Number.NaN));
  }
  return elapsed;
}

installTemporalRuntime(pino({ level: 'warn' }));
const workflowBundle = await bundleWorkflows(false, new DefaultLogger('WARN'));
const replays: Replay[] = journeys.flatMap((journey) => {
  const file = path.resolve('test/replay/histories', `${journey}.json`);
  const history = historyFromJSON(JSON.parse(readFileSync(file, 'utf8')));
  return [
    { journey, kind: 'whole' as const, history },
    ...cutsAtTasks(history).map((cut) => ({ journey, kind: 'cut' as const, history: cut })),
  ];
});

// The first pass warms the workflow thread (its first replays load the bundle) and is not counted.
const elapsed = await timeReplays(Array.from({ length: rounds + 1 }, () => replays).flat(), workflowBundle);
const samples = replays.map((_, index) =>
  Array.from({ length: rounds }, (_, round) => elapsed[(round + 1) * replays.length + index] ?? Number.NaN),
);
const medians = samples.map((ms) => median(ms));

const rows = journeys.map((journey) => {
  const of = (kind: Replay['kind']) =>
    replays.flatMap((replay, index) => (replay.journey === journey && replay.kind === kind ? [index] : []));
  const whole = of('whole')[0] ?? -1;
  const cuts = of('cut');
  const events = replays[whole]?.history.events?.length ?? 0;
  const missesMs = cuts.reduce((sum, index) => sum + (medians[index] ?? Number.NaN), 0);
  return [
    journey,
    String(events),
    String(cuts.length + 1),
    fixed(medians[whole] ?? Number.NaN, 1),
    fixed(missesMs, 0),
  ];
});
console.log(`Replay of recorded journeys, medians of ${rounds} rounds\n`);
console.log(
  table(
    [
      'journey',
      'events',
      'workflow tasks',
      'one replay of the whole history, ms',
      'replays when every later task misses the cache, ms',
    ],
    rows,
  ),
);
const heapLimit = v8.getHeapStatistics().heap_size_limit;
console.log(
  `\nThe workflow cache bankflow sizes from this process's heap limit (${fixed(heapLimit / 2 ** 20)} MB): ` +
    `${cachedWorkflowsForHeap(heapLimit)} workflows`,
);

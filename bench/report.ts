import { costGrowth, zeroLatencyRows } from './cost-growth.js';
import type { CostResult } from './cost.js';
import { renderCost } from './cost-report.js';
import type { FootprintResult } from './footprint.js';
import { growthMet, maxGrowthRatio, type GrowthPoint } from './growth.js';
import { footprintTargets, renderFootprint } from './footprint-report.js';
import type { IngestRow } from './ingest.js';
import type { JourneyBatch, JourneyResult } from './journey.js';
import type { ParallelSyncResult } from './parallel-sync.js';
import type { PollsResult } from './polls.js';
import { pollsTargets, renderPolls } from './polls-report.js';
import type { QueuesResult } from './queues.js';
import { queuesTargets, renderQueues } from './queues-report.js';
import type { SyncRow } from './sync.js';
import { defaultPagesPerRun, pagesPerBatch } from '../src/workflows/sync/settings.js';

/**
 * A serial sync run's history: one marker per batch of pages, plus the run's own events (start, patches,
 * search attributes, the end) and the workflow tasks a slow bank's long run splits into; bounded whatever the
 * window holds.
 */
const syncRunEventsBound = defaultPagesPerRun / pagesPerBatch + 100;

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  platform: string;
  /** 1, 5 and 15 minute load averages when the run started: how busy the shared machine was. */
  loadAverage: number[];
}

export interface BenchResults {
  startedAt: string;
  durationMs: number;
  machine: Machine;
  settings: Record<string, unknown>;
  ingest?: { settings: { durationMs: number; workflows: number; rounds: number }; rows: IngestRow[] };
  journey?: JourneyResult & { rounds: number };
  sync?: { rounds: number; recurrences: number; rows: SyncRow[] };
  parallelSync?: ParallelSyncResult;
  footprint?: FootprintResult;
  queues?: QueuesResult;
  polls?: PollsResult;
  /** Temporal executions and actions per settled payment, by path (bench/cost.ts). */
  cost?: CostResult;
  /** Waiting workflows at two or more sizes, for the cost-growth line (see bench/cost-growth.ts). */
  waitingGrowth?: { units: { work: string; cost: string }; points: GrowthPoint[] };
}

export interface TargetCheck {
  target: string;
  measured: string;
  met: boolean;
}

export const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');
const times = (value: number) => (Number.isFinite(value) ? `${fixed(value, 2)}x` : 'n/a');
/** Targets are judged on the unrounded ratio; three digits keep a near miss from reading as a pass. */
export const exactly = (value: number) => (Number.isFinite(value) ? `${fixed(value, 3)}x` : 'n/a');
export const mb = (bytes: number) => fixed(bytes / 2 ** 20);
export const percent = (share: number) => `${fixed(share * 100, 1)} %`;

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((cell, column) =>
    Math.max(cell.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n');
}

/**
 * The webhooks of a load that got no 2xx (the receiver sheds load with 503 beyond 200 in flight, for the bank
 * to retry), said beside a latency that only acknowledged webhooks have: a round with none has no latency at
 * all.
 */
function unacknowledged(row: IngestRow): string {
  const failed = row.receiver.reduce((sum, run) => sum + run.failed, 0);
  if (failed === 0) return '';
  const sent = row.receiver.reduce((sum, run) => sum + run.ok + run.failed, 0);
  const silentRounds = row.receiver.filter((run) => run.ok === 0).length;
  return `; at ${row.offered}/s ${failed} of ${sent} not acknowledged (503 or error)${silentRounds > 0 ? `, none in ${silentRounds} of ${row.receiver.length} rounds` : ''}`;
}

/** Every performance target of docs/performance.md, checked against this run's medians. */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const { ingest, journey, sync, footprint, cost } = results;
  if (cost) {
    const { api, starter } = cost.paths;
    checks.push({
      target: 'merchant HTTP API: executions and actions per payment <= the starter path (medians)',
      measured:
        `executions ${fixed(api.median.executions, 1)} vs ${fixed(starter.median.executions, 1)}, ` +
        `actions ${fixed(api.median.actions, 1)} vs ${fixed(starter.median.actions, 1)}`,
      met: api.median.executions <= starter.median.executions && api.median.actions <= starter.median.actions,
    });
  }
  if (ingest) {
    const worst = Math.min(...ingest.rows.map((row) => row.throughputRatio));
    checks.push({
      target: 'receiver throughput >= 0.9x bare signalWithStart (every load)',
      measured: ingest.rows.map((row) => `${row.offered}/s: ${exactly(row.throughputRatio)}`).join(', '),
      met: worst >= 0.9,
    });
    const at200 = ingest.rows.find((row) => row.offered === 200);
    if (at200) {
      checks.push({
        target: 'receiver p99 ack < 250 ms at 200 events/s',
        measured: `${fixed(at200.median.receiver.p99)} ms`,
        met: at200.median.receiver.p99 < 250,
      });
    }
    const at1000 = ingest.rows.find((row) => row.offered === 1_000);
    if (at1000) {
      checks.push({
        target: 'receiver throughput >= 0.95x bare at 1000 events/s',
        measured: exactly(at1000.throughputRatio),
        met: at1000.throughputRatio >= 0.95,
      });
      checks.push({
        target: 'receiver p99 ack <= 1.2x bare p99 at 1000 events/s',
        measured: `${exactly(at1000.p99Ratio)} (${fixed(at1000.median.receiver.p99)} vs ${fixed(at1000.median.bare.p99)} ms)${unacknowledged(at1000)}`,
        met: at1000.p99Ratio <= 1.2,
      });
    }
    const slowest = Math.max(
      ...ingest.rows.flatMap((row) => row.receiver.map((run) => run.max).filter(Number.isFinite)),
    );
    checks.push({
      target: "receiver ack never near the bank's 3 s deadline (max < 1.5 s, every run)",
      measured: `${fixed(slowest)} ms${ingest.rows.map(unacknowledged).join('')}`,
      met: slowest < 1_500 && ingest.rows.every((row) => row.receiver.every((run) => run.ok > 0)),
    });
  }
  if (journey) {
    checks.push(
      {
        target: 'journey p50 latency <= 1.05x the engine floor',
        measured: exactly(journey.p50Ratio),
        met: journey.p50Ratio <= 1.05,
      },
      {
        target: 'journey throughput >= 0.95x the engine floor',
        measured: exactly(journey.throughputRatio),
        met: journey.throughputRatio >= 0.95,
      },
      {
        target: 'journey CPU (worker + receiver + Temporal) <= 1.15x the engine floor',
        measured: exactly(journey.cpuRatio),
        met: journey.cpuRatio <= 1.15,
      },
      {
        target: 'journey history events <= 1.10x the engine floor',
        measured: `${journey.bankflow.cost.events} / ${journey.floor.cost.events} = ${exactly(journey.eventsRatio)}`,
        met: journey.eventsRatio <= 1.1,
      },
    );
  }
  const slowBank = sync ? sync.rows.filter((row) => row.bankLatencyMs > 0) : [];
  if (slowBank.length > 0) {
    checks.push({
      target: 'attempts sync >= 0.9x direct paging (every size, bank with latency: 100 ms in the full run)',
      measured: slowBank
        .map((row) => `${row.attempts} at ${row.bankLatencyMs} ms: ${exactly(row.throughputRatio)}`)
        .join(', '),
      met: Math.min(...slowBank.map((row) => row.throughputRatio)) >= 0.9,
    });
  }
  const scale = sync ? zeroLatencyRows(sync.rows) : [];
  if (scale.length > 0) {
    const worst = Math.min(...scale.map((row) => row.throughputRatio));
    checks.push({
      target: 'attempts sync >= 0.7x direct paging (every size, zero-latency bank)',
      measured: scale.map((row) => `${row.attempts}: ${exactly(row.throughputRatio)}`).join(', '),
      met: worst >= 0.7,
    });
    checks.push({
      target: `history events per run at most ${syncRunEventsBound} at every size (a run continues as new every ${defaultPagesPerRun} pages)`,
      measured: scale.map((row) => `${row.attempts}: ${fixed(row.median.sync.maxEventsPerRun)}`).join(', '),
      met: Math.max(...scale.map((row) => row.median.sync.maxEventsPerRun)) <= syncRunEventsBound,
    });
  }
  const parallel = results.parallelSync;
  if (parallel) {
    const { settings } = parallel;
    checks.push({
      target: `parallel sync of ${settings.attempts} attempts (bank +${settings.bankLatencyMs} ms, ${settings.requestsPerSecond}/s, ${settings.workers} workers) >= 0.8x the limit's ceiling, no 429`,
      measured: `${fixed(parallel.median.recordsPerSecond)} of ${fixed(parallel.ceilingRecordsPerSecond)} records/s: ${exactly(parallel.ceilingRatio)}; ${parallel.rateLimited} answered 429`,
      met: parallel.ceilingRatio >= 0.8 && parallel.rateLimited === 0,
    });
  }
  if (footprint) checks.push(...footprintTargets(footprint));
  if (results.queues) checks.push(...queuesTargets(results.queues));
  if (results.polls) checks.push(...pollsTargets(results.polls));
  for (const line of costGrowth(results)) {
    if (line.reference) continue;
    checks.push({
      target: `${line.name}: cost growth / work growth <= ${maxGrowthRatio}x (every step)`,
      measured: line.steps.map((step) => `${step.from} -> ${step.to}: ${exactly(step.ratio)}`).join(', '),
      met: growthMet(line),
    });
  }
  return checks;
}

/** The run as Markdown tables: printed by `npm run bench` and pasted into docs/performance.md. */
export function renderReport(results: BenchResults): string {
  const { ingest, journey, sync, footprint, machine } = results;
  const parts: string[] = [
    `bankflow benchmarks, ${results.startedAt} (${fixed(results.durationMs / 1000)} s); ${machine.cpus} x ${machine.cpuModel}, ` +
      `${fixed(machine.memoryGiB)} GiB, Node ${machine.node}; load average at start ${machine.loadAverage.map((load) => fixed(load, 1)).join(' ')}`,
  ];
  if (ingest) {
    const latency = (run: { p50: number; p99: number; max: number }) =>
      `${fixed(run.p50)} / ${fixed(run.p99)} / ${fixed(run.max)}`;
    parts.push(
      `1. Webhook ingest: open loop, ${fixed(ingest.settings.durationMs / 1000)} s per load over ${ingest.settings.workflows} running payment workflows; receiver = \`bankflow webhooks\` over HTTP, bare = \`signalWithStart\` from a plain client; medians of ${ingest.settings.rounds} rounds`,
      table(
        [
          'offered/s',
          'receiver/s',
          'bare signal/s',
          'throughput ratio',
          'receiver ack p50 / p99 / max ms',
          'bare p50 / p99 / max ms',
          'p99 ratio',
          'CPU ms/event: receiver / bare client',
          'Temporal CPU ms/event: receiver / bare',
          'cores busy: receiver + Temporal / bare Temporal',
        ],
        ingest.rows.map((row) => [
          String(row.offered),
          fixed(row.median.receiver.throughput),
          fixed(row.median.bare.throughput),
          times(row.throughputRatio),
          latency(row.median.receiver),
          latency(row.median.bare),
          times(row.p99Ratio),
          `${fixed(row.median.receiver.receiverCpuMsPerEvent, 2)} / ${fixed(row.median.bare.bareClientCpuMsPerEvent, 2)}`,
          `${fixed(row.median.receiver.temporalCpuMsPerEvent, 2)} / ${fixed(row.median.bare.temporalCpuMsPerEvent, 2)}`,
          `${fixed(row.median.receiver.receiverCores, 2)} + ${fixed(row.median.receiver.temporalCores, 2)} / ${fixed(row.median.bare.temporalCores, 2)}`,
        ]),
      ),
    );
  }
  if (journey) {
    const side = (name: string, s: JourneyResult['bankflow']) => [
      name,
      fixed(s.median.journeysPerSecond, 1),
      fixed(s.median.p50),
      fixed(s.median.p99),
      `${fixed(s.median.cpuMsPerJourney.total)} (${fixed(s.median.cpuMsPerJourney.worker)} + ${fixed(s.median.cpuMsPerJourney.receiver)} + ${fixed(s.median.cpuMsPerJourney.temporal)})`,
      fixed(s.median.cpuMsPerJourney.outside),
      `${s.cost.activities} / ${s.cost.updates} / ${s.cost.signals}`,
      String(s.cost.workflowTasks),
      String(s.cost.events),
    ];
    parts.push(
      `2. Payment journey: ${journey.concurrency} concurrent create -> options -> authorize -> webhooks -> settled; each side's worker a process of its own; CPU: worker + receiver + Temporal server, and apart from it the bench process (driver and sandbox bank); medians of ${journey.rounds} rounds`,
      table(
        [
          '',
          'journeys/s',
          'p50 ms',
          'p99 ms',
          'CPU ms/journey (worker + receiver + Temporal)',
          'driver + bank CPU ms/journey',
          'activities / updates / signals',
          'workflow tasks',
          'history events',
        ],
        [
          side('bankflow', journey.bankflow),
          side('engine floor (skeleton)', journey.floor),
          [
            'bankflow / floor',
            times(journey.throughputRatio),
            times(journey.p50Ratio),
            '',
            times(journey.cpuRatio),
            '',
            '',
            '',
            times(journey.eventsRatio),
          ],
        ],
      ),
      `Cost over the floor: ${fixed(journey.costPerJourneyMs)} ms per journey at p50, ${fixed(journey.costPerStepMs, 1)} ms per step (${journey.bankflow.steps} steps). ` +
        `Journeys whose Pix cash-in webhook never reached the workflow (settled on the bank's GET after \`cashInWaitMs\`): ${journey.bankflow.median.cashInMissed} of ${journey.concurrency * journey.rounds}.`,
    );
    const { growth } = journey;
    if (growth) {
      const at = (batch: JourneyBatch) =>
        `${fixed(batch.journeysPerSecond, 1)}/s, p50 ${fixed(batch.p50)} ms, ${fixed(batch.cpuMsPerJourney.total)} CPU ms and ${fixed(batch.activitiesPerJourney)} activities per journey`;
      parts.push(
        `Cost growth, ${growth.small.concurrency} and ${growth.large.concurrency} concurrent in the same rounds (medians of ${growth.large.batches.bankflow.length}): ` +
          [growth.small, growth.large]
            .map(
              (size) =>
                `${size.concurrency}: bankflow ${at(size.median.bankflow)}; floor ${at(size.median.floor)}; floor with bankflow's workflow cache of ${growth.cacheSize} ${at(size.median.floorAtCache)}`,
            )
            .join('. ') +
          '.',
      );
    }
  }
  if (sync) {
    parts.push(
      `3. Attempts sync: default page size and pages per run, ${sync.recurrences} recurrences per window, on a \`bankflow worker\` process; medians of ${sync.rounds} rounds`,
      table(
        [
          'attempts',
          'bank latency ms',
          'sync records/s',
          'direct records/s',
          'ratio',
          'sync s',
          'direct s',
          'activity calls',
          'signals',
          'runs',
          'max events/run',
          'peak worker RSS MB (growth)',
          'ms per page: total / queued / activity / workflow tasks',
          'CPU s, sync: worker / Temporal / bank; direct: bank and client',
        ],
        sync.rows.map((row) => [
          String(row.attempts),
          String(row.bankLatencyMs),
          fixed(row.median.sync.recordsPerSecond),
          fixed(row.median.direct.recordsPerSecond),
          times(row.throughputRatio),
          fixed(row.median.sync.wallMs / 1000, 2),
          fixed(row.median.direct.wallMs / 1000, 2),
          fixed(row.median.sync.activityCalls),
          fixed(row.median.sync.signals),
          fixed(row.median.sync.runs),
          fixed(row.median.sync.maxEventsPerRun),
          `${mb(row.median.sync.peakRssBytes)} (+${mb(row.median.sync.peakRssGrowthBytes)})`,
          [
            row.median.sync.perPageMs.total,
            row.median.sync.perPageMs.activityQueue,
            row.median.sync.perPageMs.activity,
            row.median.sync.perPageMs.workflowTasks,
          ]
            .map((ms) => fixed(ms))
            .join(' / '),
          `${[row.median.sync.cpuMs.worker, row.median.sync.cpuMs.temporal, row.median.sync.cpuMs.outside]
            .map((ms) => fixed(ms / 1000, 2))
            .join(' / ')}; ${fixed(row.median.direct.cpuMs.outside / 1000, 2)}`,
        ]),
      ),
    );
    const scale = zeroLatencyRows(sync.rows);
    const first = scale[0];
    const last = scale.at(-1);
    if (first && last && first !== last) {
      const grow = (read: (row: SyncRow) => number) => times(read(last) / read(first));
      parts.push(
        `Growth ${first.attempts} -> ${last.attempts} attempts (${times(last.attempts / first.attempts)} the work): sync time ${grow((row) => row.median.sync.wallMs)}, ` +
          `direct time ${grow((row) => row.median.direct.wallMs)}, activity calls ${grow((row) => row.median.sync.activityCalls)}, ` +
          `max events per run ${grow((row) => row.median.sync.maxEventsPerRun)}.`,
      );
    }
  }
  const parallel = results.parallelSync;
  if (parallel) {
    const { settings, median: run } = parallel;
    parts.push(
      `3b. Parallel attempts sync: ${settings.attempts} attempts over ${settings.recurrences} recurrences, sandbox bank at +${settings.bankLatencyMs} ms and ${settings.requestsPerSecond} requests/s, ` +
        `${settings.workers} \`bankflow worker\` processes with BANK_RATE_LIMIT_PER_SECOND=${settings.requestsPerSecond}; medians of ${parallel.runs.length} rounds, load ${fixed(parallel.loadAtStart, 2)} at start`,
      table(
        [
          'records/s',
          'ceiling records/s',
          'ratio',
          'bank calls/s',
          'pages',
          'workflow runs',
          '429',
          'time s',
          'ms per page in the slices: queued / activity / workflow tasks',
        ],
        [
          [
            fixed(run.recordsPerSecond),
            fixed(parallel.ceilingRecordsPerSecond),
            times(parallel.ceilingRatio),
            fixed(run.requestsPerSecond, 1),
            fixed(run.pages),
            fixed(run.runs),
            String(parallel.rateLimited),
            fixed(run.wallMs / 1000, 1),
            [run.perPageMs.activityQueue, run.perPageMs.activity, run.perPageMs.workflowTasks]
              .map((ms) => fixed(ms))
              .join(' / '),
          ],
        ],
      ),
    );
  }
  if (footprint) parts.push(...renderFootprint(footprint));
  if (results.queues) parts.push(...renderQueues(results.queues));
  if (results.polls) parts.push(...renderPolls(results.polls));
  if (results.cost) parts.push(...renderCost(results.cost));
  const growth = costGrowth(results);
  if (growth.length > 0) {
    parts.push(
      `Cost growth: each step from one size to the next; ratio = cost growth / work growth (1 = linear; target <= ${maxGrowthRatio}x)`,
      table(
        ['line', 'work', 'cost', 'sizes (work: cost)', 'step', 'work growth', 'cost growth', 'ratio'],
        growth.flatMap((line) =>
          line.steps.map((step, index) => [
            index === 0 ? line.name : '',
            index === 0 ? line.work : '',
            index === 0 ? line.cost : '',
            index === 0 ? line.points.map((point) => `${point.label}: ${fixed(point.cost)}`).join(', ') : '',
            `${step.from} -> ${step.to}`,
            times(step.workGrowth),
            times(step.costGrowth),
            exactly(step.ratio),
          ]),
        ),
      ),
    );
  }
  const checks = checkTargets(results);
  if (checks.length > 0) {
    parts.push(
      'Targets',
      table(
        ['target', 'measured', 'status'],
        checks.map((check) => [check.target, check.measured, check.met ? 'met' : 'MISSED']),
      ),
    );
  }
  return parts.join('\n\n');
}

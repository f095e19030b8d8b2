import { growthLine, measuredLines, type GrowthLine, type GrowthPoint } from './growth.js';
import type { GrowthSide, JourneyBatch, JourneyGrowth } from './journey.js';
import type { BenchResults } from './report.js';
import type { SyncRow } from './sync.js';

/**
 * The sync cases against the zero-latency bank, smallest first: what the targets and the growth line read.
 */
export const zeroLatencyRows = (rows: SyncRow[]) =>
  rows.filter((row) => row.bankLatencyMs === 0).sort((a, b) => a.attempts - b.attempts);

const journeyUnits = {
  work: 'concurrent journeys',
  cost: 'CPU ms for the batch (worker + receiver + Temporal)',
};

/** A batch's cost is the CPU every process spent on it: CPU per journey times the journeys. */
const batchPoint = (size: number, batch: JourneyBatch): GrowthPoint => ({
  label: `${size}`,
  work: size,
  cost: batch.cpuMsPerJourney.total * size,
});

function journeyLines(growth: JourneyGrowth | undefined): GrowthLine[] {
  if (!growth) return [];
  const line = (name: string, side: GrowthSide) =>
    growthLine(name, journeyUnits, [
      batchPoint(growth.small.concurrency, growth.small.median[side]),
      batchPoint(growth.large.concurrency, growth.large.median[side]),
    ]);
  return [
    line('journeys', 'bankflow'),
    { ...line('journeys, engine floor', 'floor'), reference: true },
    {
      ...line(`journeys, engine floor with bankflow's workflow cache (${growth.cacheSize})`, 'floorAtCache'),
      reference: true,
    },
  ];
}

/** Every sync size present against the zero-latency bank; the cost is the sync's wall time. */
function syncLine(rows: SyncRow[] | undefined): GrowthLine | undefined {
  if (!rows) return undefined;
  return growthLine(
    'attempts sync',
    { work: 'attempts', cost: 'sync wall ms' },
    zeroLatencyRows(rows).map((row) => ({
      label: `${row.attempts}`,
      work: row.attempts,
      cost: row.median.sync.wallMs,
    })),
  );
}

/**
 * Every cost-growth line this run measured. The waiting-workflows line comes from `results.waitingGrowth`,
 * the points a footprint benchmark measures at two or more numbers of waiting payments (work: waiting
 * payments; cost: what it chose, e.g. worker RSS growth over idle in bytes).
 */
export function costGrowth(results: BenchResults): GrowthLine[] {
  return measuredLines([
    ...journeyLines(results.journey?.growth),
    syncLine(results.sync?.rows),
    results.waitingGrowth &&
      growthLine('waiting workflows', results.waitingGrowth.units, results.waitingGrowth.points),
  ]);
}

import { describe, expect, it } from '@jest/globals';
import { project, type UnitCosts } from '../../bench/capacity/model.js';

const costs: UnitCosts = {
  pollCpuMs: { cached: 10, replayed: 40 },
  workflowTasksPerPoll: 2,
  historyEventsPerPoll: 11,
  historyBytesPerPoll: 3_000,
  actionsPerPoll: 2,
  workerIdleRssBytes: 200e6,
  cachedWorkflowBytes: 300e3,
  replayChurnRssBytes: 100e6,
};
const settings = { cachedWorkflowsPerWorker: 2_000, retentionDays: 7 };

describe('the capacity model (docs/capacity.md)', () => {
  it('reads on the plan while the budget allows: a payment every 30 minutes, an enrollment once a day', () => {
    const projection = project(
      { payments: 18_000, enrollments: 86_400, recurrences: 0 },
      { ...settings, pollReadsPerSecond: 100 },
      costs,
    );
    expect(projection.plannedReadsPerSecond).toBeCloseTo(10 + 1);
    expect(projection.bankReadsPerSecond).toBeCloseTo(11);
    expect(projection.paymentPollIntervalS).toBeCloseTo(1_800);
    expect(projection.temporalActionsPerSecond).toBeCloseTo(22);
    expect(projection.workflowTasksPerSecond).toBeCloseTo(22);
    expect(projection.historyGbPerDay).toBeCloseTo((11 * 3_000 * 86_400) / 1e9);
  });

  it('never reads past the budget: every wait stretches alike, and the floor is what keeps 2 h between polls', () => {
    const population = { payments: 72_000, enrollments: 0, recurrences: 0 };
    const projection = project(population, { ...settings, pollReadsPerSecond: 20 }, costs);
    expect(projection.plannedReadsPerSecond).toBeCloseTo(40);
    expect(projection.bankReadsPerSecond).toBe(20);
    expect(projection.paymentPollIntervalS).toBeCloseTo(3_600);
    expect(projection.minimumPollBudget).toBeCloseTo(10);
  });

  it('replays every poll once the polled journeys outnumber the fleet cache, and adds workers for the cores', () => {
    const small = project(
      { payments: 1_000, enrollments: 0, recurrences: 0 },
      { ...settings, pollReadsPerSecond: 100 },
      costs,
    );
    expect(small.replayedShare).toBe(0);
    expect(small.workers).toBe(1);
    expect(small.workerMemoryGb).toBeCloseTo((200e6 + 1_000 * 300e3) / 1e9);

    const large = project(
      { payments: 900_000, enrollments: 0, recurrences: 0 },
      { ...settings, pollReadsPerSecond: 1_000 },
      costs,
    );
    // Polled every 1,800 s, a cache turning over in 40 s at most: the timer's task replays, the answer, on
    // the plan and so at once, does not.
    expect(large.replayedShare).toBe(0.5);
    expect(large.workerCores).toBeCloseTo(500 * 0.025);
    expect(large.workers).toBe(13);
    expect(large.workerMemoryGb).toBeCloseTo((13 * (200e6 + 2_000 * 300e3 + 100e6)) / 1e9);

    // Saturated ten times over, the answer waits a tenth of the interval: longer than the turnover too.
    const saturated = project(
      { payments: 900_000, enrollments: 0, recurrences: 0 },
      { ...settings, pollReadsPerSecond: 50 },
      costs,
    );
    expect(saturated.replayedShare).toBe(1);
    expect(saturated.workerCores).toBeCloseTo(50 * 0.04);
  });
});

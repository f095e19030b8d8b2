import fc from 'fast-check';
import { enrollmentScenario } from './commands.js';
import { runEnrollmentCase } from './enrollment-case.js';
import { startModelWorld, type ModelWorld } from './model-world.js';
import { modelRuns } from './runs.js';

const runs = modelRuns(10);

describe('enrollment workflow against a model bank (model-based, time-skipping)', () => {
  let world: ModelWorld;
  beforeAll(async () => {
    world = await startModelWorld();
  });
  afterAll(() => world?.stop());

  it(
    `keeps its invariants in ${runs.numRuns} generated scenarios (seed ${runs.seed}) of webhooks, lagging lists, faults, customers and time`,
    async () => {
      await fc.assert(
        fc.asyncProperty(enrollmentScenario, (scenario) => runEnrollmentCase(world, scenario)),
        runs.parameters,
      );
    },
    runs.timeoutMs,
  );
});

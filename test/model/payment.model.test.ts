import fc from 'fast-check';
import { paymentScenario } from './commands.js';
import { startModelWorld, type ModelWorld } from './model-world.js';
import { modelRuns } from './runs.js';
import { runPaymentCase } from './payment-case.js';

const runs = modelRuns(15);

describe('payment workflow against a model bank (model-based, time-skipping)', () => {
  let world: ModelWorld;
  beforeAll(async () => {
    world = await startModelWorld();
  });
  afterAll(() => world?.stop());

  it(
    `keeps its invariants in ${runs.numRuns} generated scenarios (seed ${runs.seed}) of webhooks, lagging GETs, faults, customers and time`,
    async () => {
      await fc.assert(
        fc.asyncProperty(paymentScenario, (scenario) => runPaymentCase(world, scenario)),
        runs.parameters,
      );
    },
    runs.timeoutMs,
  );
});

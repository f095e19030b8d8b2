import { readFileSync } from 'node:fs';
import { testEnvKeys } from '../setup/shared.js';

describe('the workflow bundle', () => {
  // With the SDK's reusable V8 context each workflow evaluates the bundle's modules again: zod there cost
  // about 1 MB of memory per cached workflow and a large share of each workflow task (docs/performance.md).
  it('holds no zod, even through a module workflow code shares with the rest of bankflow', () => {
    const code = readFileSync(process.env[testEnvKeys.bundle] ?? '', 'utf8');
    expect(code).toContain('biometricPaymentWorkflow');
    expect(code).not.toMatch(/node_modules\/zod\//);
  });
});

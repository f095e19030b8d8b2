import { readdirSync } from 'node:fs';
import path from 'node:path';
import { importsOf } from '../helpers/module-imports.js';

describe('the layers the journeys are read by', () => {
  it.each([
    'src/workflows/payment/journey.ts',
    'src/workflows/enrollment/journey.ts',
    'src/workflows/recurrence/state.ts',
  ])('%s holds the journey with no Temporal import, not even a type', (file) => {
    const temporal = [...importsOf(path.resolve(file))].filter((module) => module.startsWith('@temporalio/'));
    expect(temporal).toEqual([]);
  });

  it('src/contract imports nothing from the workflows', () => {
    const workflows = path.resolve('src/workflows');
    const contract = readdirSync('src/contract').map((name) => path.resolve('src/contract', name));
    const reached = contract.flatMap((file) =>
      [...importsOf(file)].filter((module) => module.startsWith(workflows)),
    );
    expect(reached).toEqual([]);
  });
});

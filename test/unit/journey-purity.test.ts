import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every module `file` imports, directly or through its relative imports, type-only ones included. */
function importsOf(file: string, seen = new Set<string>()): Set<string> {
  for (const match of readFileSync(file, 'utf8').matchAll(/from '([^']+)'/g)) {
    const spec = match[1] ?? '';
    if (!spec.startsWith('.')) {
      seen.add(spec);
      continue;
    }
    const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
    if (seen.has(target)) continue;
    seen.add(target);
    importsOf(target, seen);
  }
  return seen;
}

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

import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Every module `file` imports, directly or through its relative imports, type-only ones included. */
export function importsOf(file: string, seen = new Set<string>()): Set<string> {
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

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

/**
 * The files of this repository `file` loads at run time, itself included: its relative imports and theirs,
 * leaving out `import type` and imports whose every name is a type, which compile to nothing.
 */
export function runtimeFilesOf(file: string, seen = new Set<string>([file])): Set<string> {
  const source = readFileSync(file, 'utf8');
  for (const match of source.matchAll(/^(?:import|export)(\s+type)?\s+([^;]*?)\s+from\s+'(\.[^']+)';/gms)) {
    const [, typeOnly, clause = '', spec = ''] = match;
    if (typeOnly) continue;
    const names = /^\{([^}]*)\}$/s
      .exec(clause.trim())?.[1]
      ?.split(',')
      .map((name) => name.trim());
    if (names && names.filter(Boolean).every((name) => name.startsWith('type '))) continue;
    const target = path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts'));
    if (seen.has(target)) continue;
    seen.add(target);
    runtimeFilesOf(target, seen);
  }
  return seen;
}

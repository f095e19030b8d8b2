// Module hooks for a child process that must say which modules an import loads: every URL the ESM loader
// resolves is appended to the file the registration names. Registered by test/unit/cli-startup-imports.test.ts.
import { appendFileSync } from 'node:fs';

let file;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}

// The compiled src/ and devkit/ the tests' `bankflow` processes run from (test/helpers/cli.ts): node starts a
// compiled CLI in a fraction of the time tsx takes to compile it again in every process, and the tests start
// hundreds. Built before each test run, again only when a file under src/ or devkit/ (or a tsconfig) changed since
// the last build, so a run always tests the code as it is. Its own directory, not dist/: `npm run build`'s dist/
// holds prebuilt workflow bundles that may be older than the source, where this build takes the test run's own
// (test/setup/start-temporal.ts).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { copyAssets } from './copy-assets.mjs';

export const testBuildDir = path.resolve('.test-results', 'build');
const stampFile = path.join(testBuildDir, '.built');

/** The newest modification time among the build's inputs; a deleted file changes its directory's. */
function newestInput() {
  let newest = Math.max(statSync('tsconfig.json').mtimeMs, statSync('tsconfig.build.json').mtimeMs);
  for (const root of ['src', 'devkit']) {
    newest = Math.max(newest, statSync(root).mtimeMs);
    for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

function builtAt() {
  try {
    return statSync(stampFile).mtimeMs;
  } catch {
    return -Infinity;
  }
}

/** Builds into testBuildDir unless it is up to date; returns how long that took, in ms (0 when it was). */
export function buildForTests() {
  const started = Date.now();
  if (builtAt() >= newestInput()) return 0;
  // The stamp's time is taken before compiling, so a file saved during the build makes the next run build again.
  const stamp = new Date();
  // No type check: `npm run lint` does it, and tsc emits the same JavaScript without one (isolatedModules).
  const tsc = spawnSync(
    process.execPath,
    [
      'node_modules/typescript/bin/tsc',
      ...['-p', 'tsconfig.build.json', '--noCheck', '--declaration', 'false'],
      ...[
        '--outDir',
        testBuildDir,
        '--incremental',
        '--tsBuildInfoFile',
        path.join(testBuildDir, '.tsbuildinfo'),
      ],
    ],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0)
    throw new Error(`tsc could not build ${testBuildDir} (exit code ${tsc.status ?? tsc.signal})`);
  copyAssets(testBuildDir);
  writeFileSync(stampFile, '');
  utimesSync(stampFile, stamp, stamp);
  return Date.now() - started;
}

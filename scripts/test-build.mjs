// The compiled src/ and devkit/ the tests' `bankflow` processes run from (test/helpers/cli.ts): node starts a
// compiled CLI in a fraction of the time tsx takes to compile it again in every process, and the tests start
// hundreds. Built before each test run, again only when a file under src/ or devkit/ (or a tsconfig) changed
// since the last build, so a run always tests the code as it is. Its own directory, not dist/: `npm run
// build`'s dist/ holds prebuilt workflow bundles that may be older than the source, where this build takes
// the test run's own (test/setup/start-temporal.ts).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { lockBuild, sourceInputs } from './build-files.mjs';
import { copyAssets } from './copy-assets.mjs';

export const testBuildDir = path.resolve('.test-results', 'build');
const stampFile = path.join(testBuildDir, '.inputs');

function builtFrom() {
  try {
    return readFileSync(stampFile, 'utf8');
  } catch {
    return undefined;
  }
}

/** Builds into testBuildDir unless it was built from these very inputs; returns how long that took, in ms. */
export function buildForTests() {
  const started = Date.now();
  // Listed before compiling, so a file saved during the build makes the next run build again.
  const current = sourceInputs(['tsconfig.json', 'tsconfig.build.json']);
  if (builtFrom() === current) return 0;
  // Test runs started side by side build one at a time: the later one finds the build done.
  const release = lockBuild(testBuildDir);
  try {
    if (builtFrom() !== current) compileForTests(current);
  } finally {
    release();
  }
  return Date.now() - started;
}

function compileForTests(current) {
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
  writeFileSync(stampFile, current);
}

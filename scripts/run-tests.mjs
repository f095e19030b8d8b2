#!/usr/bin/env node
// Runs jest in ESM mode, then prints its totals as one plain line ("N passed, N failed") and fails when jest
// failed or ran no test at all.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildForTests, testBuildDir } from './test-build.mjs';

const resultsDir = path.resolve('.test-results');
// One results file per run, so runs started side by side do not read each other's totals.
const outputFile = path.join(resultsDir, `jest-${process.pid}.json`);
mkdirSync(resultsDir, { recursive: true });
rmSync(outputFile, { force: true });

// A full run (no test paths given) also measures coverage and enforces jest.config.js's thresholds.
const fullRun = process.argv.slice(2).every((arg) => arg.startsWith('-'));

const buildMs = buildForTests();
if (buildMs > 0)
  console.log(
    `built ${path.relative('.', testBuildDir)} for the tests' processes in ${(buildMs / 1000).toFixed(1)} s`,
  );

const jest = spawnSync(
  process.execPath,
  [
    '--experimental-vm-modules',
    '--no-warnings=ExperimentalWarning',
    'node_modules/jest/bin/jest.js',
    '--json',
    `--outputFile=${outputFile}`,
    ...(fullRun ? ['--coverage'] : []),
    ...process.argv.slice(2),
  ],
  // The tests' bankflow processes run from the build (bench/chaos/cli-process.ts).
  { stdio: 'inherit', env: { ...process.env, BANKFLOW_TEST_BUILD_DIR: testBuildDir } },
);

let summary;
try {
  summary = JSON.parse(readFileSync(outputFile, 'utf8'));
} catch {
  console.error(`jest wrote no results to ${outputFile} (exit code ${jest.status ?? jest.signal})`);
  process.exit(1);
}
rmSync(outputFile, { force: true });
const passed = summary.numPassedTests ?? 0;
const failed = summary.numFailedTests ?? 0;
const skipped = summary.numPendingTests ?? 0;
const suitesFailed = summary.numFailedTestSuites ?? 0;
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (passed + failed === 0) {
  console.error('jest executed no test');
  process.exit(1);
}
if (jest.status !== 0 || failed > 0 || suitesFailed > 0) process.exit(jest.status || 1);

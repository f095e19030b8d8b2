#!/usr/bin/env node
// Runs jest in ESM mode (a full run in two jest processes, see `scaleSuites`), then prints the totals as one
// plain line ("N passed, N failed") and fails when jest failed or ran no test at all.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { buildForTests, testBuildDir } from './test-build.mjs';

const resultsDir = path.resolve('.test-results');
mkdirSync(resultsDir, { recursive: true });

// A full run (no test paths given) also measures coverage and enforces jest.config.js's thresholds.
const args = process.argv.slice(2);
const fullRun = args.every((arg) => arg.startsWith('-'));

// The suites under test/scale/ load one process with tens of thousands of records: in a full run they run
// after the others, in a jest process of their own, alone and without coverage (why: docs/testing.md).
const scaleSuites = 'test/scale/';

const buildMs = buildForTests();
if (buildMs > 0)
  console.log(
    `built ${path.relative('.', testBuildDir)} for the tests' processes in ${(buildMs / 1000).toFixed(1)} s`,
  );

/** Runs jest with `jestArgs` and returns its results file's totals, or exits when it wrote none. */
function runJest(name, jestArgs) {
  // One results file per run, so runs started side by side do not read each other's totals.
  const outputFile = path.join(resultsDir, `jest-${process.pid}-${name}.json`);
  rmSync(outputFile, { force: true });
  const jest = spawnSync(
    process.execPath,
    [
      '--experimental-vm-modules',
      '--no-warnings=ExperimentalWarning',
      'node_modules/jest/bin/jest.js',
      '--json',
      `--outputFile=${outputFile}`,
      ...jestArgs,
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
  return {
    ok: jest.status === 0,
    exit: jest.status || 1,
    passed: summary.numPassedTests ?? 0,
    failed: summary.numFailedTests ?? 0,
    skipped: summary.numPendingTests ?? 0,
    suitesFailed: summary.numFailedTestSuites ?? 0,
  };
}

const runs = fullRun
  ? [
      runJest('main', ['--coverage', `--testPathIgnorePatterns=/${scaleSuites}`, ...args]),
      runJest('scale', [...args, scaleSuites]),
    ]
  : [runJest('main', args)];

const sum = (key) => runs.reduce((total, run) => total + run[key], 0);
const passed = sum('passed');
const failed = sum('failed');
const skipped = sum('skipped');
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
if (passed + failed === 0) {
  console.error('jest executed no test');
  process.exit(1);
}
const failedRun = runs.find((run) => !run.ok || run.failed > 0 || run.suitesFailed > 0);
if (failedRun) process.exit(failedRun.exit);

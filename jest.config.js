/** Jest runs in ESM mode (got is ESM-only); scripts/run-tests.mjs passes --experimental-vm-modules. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  globalSetup: '<rootDir>/test/setup/global-setup.mjs',
  globalTeardown: '<rootDir>/test/setup/global-teardown.mjs',
  // Generous: the machine is shared and CLI tests start processes; a hung test still fails.
  testTimeout: 120_000,
  maxWorkers: 2,
  // A worker process keeps what each suite leaves (ESM module graphs, workflow bundles): one above this after a
  // suite is replaced by a fresh one, so a long run's memory stays that of one suite, not of seventy.
  workerIdleMemoryLimit: '2GB',
  collectCoverageFrom: ['src/**/*.ts', 'devkit/**/*.ts'],
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'json-summary'],
  // The bank's interface from both sides must be proven line by line (issue: client and sandbox).
  coverageThreshold: {
    './src/bank/': { lines: 90 },
    './devkit/sandbox/': { lines: 90 },
  },
};

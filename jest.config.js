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
  collectCoverageFrom: ['src/**/*.ts', 'devkit/**/*.ts'],
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'json-summary'],
  // The bank's interface from both sides must be proven line by line (issue: client and sandbox).
  coverageThreshold: {
    './src/bank/': { lines: 90 },
    './devkit/sandbox/': { lines: 90 },
  },
};

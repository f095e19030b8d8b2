/**
 * Longest one generated case may take; past it the case fails and is reported with its seed. The longest real
 * case follows a payment the bank leaves in processing through the 7 days it is followed: hundreds of polls,
 * over a minute on a loaded machine.
 */
const caseTimeoutMs = 240_000;

/**
 * How many cases a model-based test runs: `fallback` in `npm test`, BANKFLOW_MODEL_RUNS for more;
 * BANKFLOW_MODEL_SEED (and BANKFLOW_MODEL_PATH) replay the seed (and path) a failure printed. The seed is
 * drawn here when none is given, so that the test's name carries it even when the run is cut short.
 */
export function modelRuns(fallback: number) {
  const numRuns = Number(process.env.BANKFLOW_MODEL_RUNS ?? fallback);
  const seed = Number(process.env.BANKFLOW_MODEL_SEED ?? Math.floor(Math.random() * 0x7fffffff));
  const path = process.env.BANKFLOW_MODEL_PATH;
  return {
    numRuns,
    seed,
    parameters: {
      numRuns,
      seed,
      timeout: caseTimeoutMs,
      ...(path === undefined ? {} : { path }),
      // The report then carries the invariant broken and the scenario, one move per line, with the seed and
      // path.
      includeErrorInReport: true,
    },
    // Most cases take seconds, a few over a minute; a failing one is shrunk by running smaller scenarios
    // again.
    timeoutMs: 120_000 + numRuns * 45_000,
  };
}

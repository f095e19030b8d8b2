/**
 * How many cases a model-based test runs: `fallback` in `npm test`, BANKFLOW_MODEL_RUNS for more;
 * BANKFLOW_MODEL_SEED (and BANKFLOW_MODEL_PATH) replay the seed (and path) a failure printed.
 */
export function modelRuns(fallback: number) {
  const numRuns = Number(process.env.BANKFLOW_MODEL_RUNS ?? fallback);
  const seed = process.env.BANKFLOW_MODEL_SEED;
  const path = process.env.BANKFLOW_MODEL_PATH;
  return {
    numRuns,
    parameters: {
      numRuns,
      ...(seed === undefined ? {} : { seed: Number(seed) }),
      ...(path === undefined ? {} : { path }),
      // The report then carries the invariant broken and the scenario, one move per line, with the seed and path.
      includeErrorInReport: true,
    },
    // Each case takes seconds; a failing one is shrunk by running smaller scenarios again.
    timeoutMs: 120_000 + numRuns * 30_000,
  };
}

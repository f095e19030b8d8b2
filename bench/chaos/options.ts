import { parseArgs } from 'node:util';

export interface ChaosOptions {
  /** Enrollment + payment journeys, each with its own device. */
  journeys: number;
  /** Seeds the bank's faults, the journeys' choices and the moments of every disruption. */
  seed: number;
  /** Journeys in flight at once. */
  concurrency: number;
  /**
   * `bankflow worker` processes kept running (each is killed and restarted along the way); at least two: one
   * is redeployed on a new build while another keeps serving the runs pinned to the old one.
   */
  workers: number;
  /** Keep the run's directory (Temporal database, logs, journeys.json) even after a clean run. */
  keep: boolean;
  /** Progress lines; silent by default. */
  log: (line: string) => void;
}

export const defaultChaosOptions: Omit<ChaosOptions, 'log'> = {
  journeys: 200,
  seed: 1,
  concurrency: 40,
  workers: 2,
  keep: false,
};

function positiveInt(flag: string, value: string | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) {
    throw new Error(`--${flag}: must be a whole number of at least ${min} (got ${JSON.stringify(value)})`);
  }
  return parsed;
}

/** `npm run chaos -- --journeys 50 --seed 7 --keep`; anything else is refused with the flag's name. */
export function parseChaosArgs(argv: string[]): Omit<ChaosOptions, 'log'> {
  const { values } = parseArgs({
    args: argv,
    options: {
      journeys: { type: 'string' },
      seed: { type: 'string' },
      concurrency: { type: 'string' },
      workers: { type: 'string' },
      keep: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  return {
    journeys: positiveInt('journeys', values.journeys, defaultChaosOptions.journeys, 1),
    seed: positiveInt('seed', values.seed, defaultChaosOptions.seed, 0),
    concurrency: positiveInt('concurrency', values.concurrency, defaultChaosOptions.concurrency, 1),
    workers: positiveInt('workers', values.workers, defaultChaosOptions.workers, 2),
    keep: values.keep ?? false,
  };
}

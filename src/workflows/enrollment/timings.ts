const minutes = (n: number) => n * 60_000;

/**
 * The bank's windows for each step of an enrollment (the Open Finance no-redirect journey's) and how the workflow
 * follows the bank meanwhile. Tests cover them with skipped time.
 */
export const enrollmentTimings = {
  accountHolderValidationMs: minutes(15),
  registrationMs: minutes(5),
  /** How long past a step's window the workflow still waits for the bank's record to move on. */
  afterWindowMs: minutes(2),
  /** How often an authorized enrollment is checked at the bank, in case a revocation webhook was lost. */
  authorizedCheckIntervalMs: 24 * minutes(60),
  /** At most this many events in one run's history. */
  historyBound: 1_000,
  /** Room left below the bound for the cycle under way and the run's ending. */
  historyHeadroom: 100,
};

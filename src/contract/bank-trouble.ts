/**
 * Why the bank's reads of a journey's record are failing, kept in the journey's state while they do: support
 * filters on it (the `BankflowBankTrouble` search attribute), the merchant reads it in the state, and it
 * clears at the first read the bank answers. A read never ends a journey (docs/reliability.md): this is what
 * it does instead.
 */
export interface BankTrouble {
  /** The failure type of the last failed read: BankUnauthorized, BankUnavailable, BankInvalidResponse, ... */
  type: string;
  /** The HTTP status the bank answered with, when it answered. */
  httpStatus?: number;
  /** When the reads began failing so (workflow time); a read failing another way starts the trouble anew. */
  since: string;
}

/** The type a read is given that failed without a bank answer: its activity timed out. */
export const readTimedOut = 'BankReadTimedOut';

/** What support reads of a journey's failing reads, in its current details in the Temporal UI. */
export const troubleDetail = ({ type, httpStatus, since }: BankTrouble): string =>
  `The bank's reads fail since ${since}: ${type}${httpStatus ? ` (HTTP ${httpStatus})` : ''}; ` +
  'the journey follows the bank on and goes on once it answers';

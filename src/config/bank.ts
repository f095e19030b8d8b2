import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { sandboxBankCredentials } from '../development.js';
import { httpUrl, port, requestsPerSecond, type Parsed } from './fields.js';

/** Half for each bank queue until an operator knows the interactive calls' peak (docs/decisions.md). */
export const defaultInteractiveSharePercent = 50;

/** The bank bankflow drives; unset, the development kit's sandbox bank on SANDBOX_HOST:SANDBOX_PORT. */
export const bankVariables = {
  BANK_BASE_URL: httpUrl.optional(),
  BANK_CLIENT_ID: z.string().trim().min(1).default(sandboxBankCredentials.clientId),
  BANK_CLIENT_SECRET: secret(z.string().trim().min(1).default(sandboxBankCredentials.clientSecret)),
  /**
   * Below the 20 s a bank read's activity has (src/workflows/activity-options.ts): a longer one never fires.
   */
  BANK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(20_000, { message: "must be at most 20000 ms (a bank read's activity times out at 20 s)" })
    .default(10_000),
  /**
   * Bank calls per second across every worker on the task queue together, enforced by Temporal's matching
   * service as the activity rates of the three bank queues, which share it (BANK_INTERACTIVE_SHARE_PERCENT,
   * BANK_POLL_READS_PER_SECOND, docs/decisions.md); no limit when unset. Every worker must be given the same
   * value.
   */
  BANK_RATE_LIMIT_PER_SECOND: requestsPerSecond,
  /**
   * The part of BANK_RATE_LIMIT_PER_SECOND kept for the bank calls a customer waits on (creates,
   * authorization and registration options, authorizes, registers), percent; polls, sync and report pages and
   * metrics get the rest. Set it from the peak of those calls per second: a share they do not use is not lent
   * to the others.
   */
  BANK_INTERACTIVE_SHARE_PERCENT: z.coerce
    .number()
    .int({ message: 'must be a whole number of percent' })
    .min(1, { message: 'must be at least 1 (each bank queue needs a share)' })
    .max(99, { message: 'must be at most 99 (each bank queue needs a share)' })
    .default(defaultInteractiveSharePercent),
  /**
   * Reads per second the journeys' polls take of the bank across the fleet, enforced by Temporal's matching
   * service as the polls queue's activity rate; the rest of the background share goes to sync, report and
   * metrics pages. Unset, half the background share when BANK_RATE_LIMIT_PER_SECOND is set. As more journeys
   * are open, each polls less often within it (docs/decisions.md, "Polling within a budget").
   */
  BANK_POLL_READS_PER_SECOND: requestsPerSecond,
  /**
   * Where development reaches the sandbox bank when BANK_BASE_URL is unset; the sandbox itself listens there
   * too.
   */
  SANDBOX_HOST: z.string().min(1).default('127.0.0.1'),
  SANDBOX_PORT: port(4010),
};

export type BankEnv = Parsed<typeof bankVariables>;

export interface BankConfig {
  /** Unset means "use the embedded sandbox bank". */
  baseUrl: string | undefined;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** Bank calls per second across the fleet; no limit when unset. */
  requestsPerSecond?: number;
  /** The part of `requestsPerSecond` kept for the interactive queue, percent; unset, the default's. */
  interactiveSharePercent?: number;
  /** The part of the background share the journeys' polls take, reads per second; unset, half of it. */
  pollReadsPerSecond?: number;
}

type BudgetShares = Pick<BankConfig, 'requestsPerSecond' | 'interactiveSharePercent' | 'pollReadsPerSecond'>;

/** Bank calls per second per bank queue; a queue without a rate has no limit (no budget set). */
export interface BankQueueRates {
  interactive?: number;
  background?: number;
  polls?: number;
}

/**
 * The background work besides polls (sync, report and metrics pages) keeps at least this many calls a second.
 */
export const minBulkCallsPerSecond = 1;

/** The background share (what the interactive share leaves), or undefined without a budget. */
const backgroundShare = (bank: BudgetShares) =>
  bank.requestsPerSecond === undefined
    ? undefined
    : bank.requestsPerSecond -
      (bank.requestsPerSecond * (bank.interactiveSharePercent ?? defaultInteractiveSharePercent)) / 100;

/**
 * Bank calls per second per bank queue: `requestsPerSecond` split, interactive share first, the polls' budget
 * out of the rest; together exactly `requestsPerSecond`. None when it is unset.
 */
export function bankQueueRates(bank: BudgetShares): BankQueueRates {
  const background = backgroundShare(bank);
  if (bank.requestsPerSecond === undefined || background === undefined) return {};
  const polls = bank.pollReadsPerSecond ?? background / 2;
  return { interactive: bank.requestsPerSecond - background, background: background - polls, polls };
}

/** What the bank's budget variables together do not allow: a poll budget needs a budget to come out of. */
export function bankBudgetProblems(env: BankEnv): { variable: string; message: string }[] {
  const polls = env.BANK_POLL_READS_PER_SECOND;
  if (polls === undefined) return [];
  const background = backgroundShare({
    requestsPerSecond: env.BANK_RATE_LIMIT_PER_SECOND,
    interactiveSharePercent: env.BANK_INTERACTIVE_SHARE_PERCENT,
  });
  if (background === undefined) {
    const message =
      'needs BANK_RATE_LIMIT_PER_SECOND: the poll budget is a part of the bank budget, which is unset (no limit)';
    return [{ variable: 'BANK_POLL_READS_PER_SECOND', message }];
  }
  if (polls <= background - minBulkCallsPerSecond) return [];
  const most = Math.max(background - minBulkCallsPerSecond, 0);
  const message = `must be at most ${most} reads per second: the background share is ${background}/s (BANK_RATE_LIMIT_PER_SECOND less BANK_INTERACTIVE_SHARE_PERCENT), and sync, report and metrics pages keep at least ${minBulkCallsPerSecond}/s of it`;
  return [{ variable: 'BANK_POLL_READS_PER_SECOND', message }];
}

export function bankConfig(env: BankEnv): BankConfig {
  return {
    baseUrl: env.BANK_BASE_URL,
    clientId: env.BANK_CLIENT_ID,
    clientSecret: env.BANK_CLIENT_SECRET,
    timeoutMs: env.BANK_TIMEOUT_MS,
    requestsPerSecond: env.BANK_RATE_LIMIT_PER_SECOND,
    interactiveSharePercent: env.BANK_INTERACTIVE_SHARE_PERCENT,
    pollReadsPerSecond: env.BANK_POLL_READS_PER_SECOND,
  };
}

/** The sandbox bank's address, the development default of BANK_BASE_URL (src/bank/base-url.ts). */
export const sandboxAddress = (env: BankEnv) => ({ host: env.SANDBOX_HOST, port: env.SANDBOX_PORT });

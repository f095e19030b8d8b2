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
  /** Below the 20 s a bank read's activity has (src/workflows/activity-options.ts): a longer one never fires. */
  BANK_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(20_000, { message: "must be at most 20000 ms (a bank read's activity times out at 20 s)" })
    .default(10_000),
  /**
   * Bank calls per second across every worker on the task queue together, enforced by Temporal's matching
   * service as the activity rates of the two bank queues, which share it (BANK_INTERACTIVE_SHARE_PERCENT,
   * docs/decisions.md); no limit when unset. Every worker must be given the same value.
   */
  BANK_RATE_LIMIT_PER_SECOND: requestsPerSecond,
  /**
   * The part of BANK_RATE_LIMIT_PER_SECOND kept for the bank calls a customer waits on (creates, authorization
   * and registration options, authorizes, registers), percent; polls, sync and report pages and metrics get the
   * rest. Set it from the peak of those calls per second: a share they do not use is not lent to the others.
   */
  BANK_INTERACTIVE_SHARE_PERCENT: z.coerce
    .number()
    .int({ message: 'must be a whole number of percent' })
    .min(1, { message: 'must be at least 1 (each bank queue needs a share)' })
    .max(99, { message: 'must be at most 99 (each bank queue needs a share)' })
    .default(defaultInteractiveSharePercent),
  /** Where development reaches the sandbox bank when BANK_BASE_URL is unset; the sandbox itself listens there too. */
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
}

/** Bank calls per second per bank queue: `requestsPerSecond` split, interactive share first; none when unset. */
export function bankQueueRates(bank: Pick<BankConfig, 'requestsPerSecond' | 'interactiveSharePercent'>): {
  interactive?: number;
  background?: number;
} {
  if (bank.requestsPerSecond === undefined) return {};
  const share = bank.interactiveSharePercent ?? defaultInteractiveSharePercent;
  const interactive = (bank.requestsPerSecond * share) / 100;
  return { interactive, background: bank.requestsPerSecond - interactive };
}

export function bankConfig(env: BankEnv): BankConfig {
  return {
    baseUrl: env.BANK_BASE_URL,
    clientId: env.BANK_CLIENT_ID,
    clientSecret: env.BANK_CLIENT_SECRET,
    timeoutMs: env.BANK_TIMEOUT_MS,
    requestsPerSecond: env.BANK_RATE_LIMIT_PER_SECOND,
    interactiveSharePercent: env.BANK_INTERACTIVE_SHARE_PERCENT,
  };
}

/** The sandbox bank's address, the development default of BANK_BASE_URL (src/bank/base-url.ts). */
export const sandboxAddress = (env: BankEnv) => ({ host: env.SANDBOX_HOST, port: env.SANDBOX_PORT });

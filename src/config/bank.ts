import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { sandboxBankCredentials } from '../development.js';
import { httpUrl, port, requestsPerSecond, type Parsed } from './fields.js';

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
   * service as the queue's activity rate (docs/decisions.md); no limit when unset.
   */
  BANK_RATE_LIMIT_PER_SECOND: requestsPerSecond,
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
}

export function bankConfig(env: BankEnv): BankConfig {
  return {
    baseUrl: env.BANK_BASE_URL,
    clientId: env.BANK_CLIENT_ID,
    clientSecret: env.BANK_CLIENT_SECRET,
    timeoutMs: env.BANK_TIMEOUT_MS,
    requestsPerSecond: env.BANK_RATE_LIMIT_PER_SECOND,
  };
}

/** The sandbox bank's address, the development default of BANK_BASE_URL (src/bank/base-url.ts). */
export const sandboxAddress = (env: BankEnv) => ({ host: env.SANDBOX_HOST, port: env.SANDBOX_PORT });

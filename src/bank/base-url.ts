import type { BankConfig, Config } from '../config.js';

/** Where the worker reaches the bank: BANK_BASE_URL, else the local sandbox (development only). */
export function resolveBank(config: Config, sandboxUrl?: string): BankConfig & { baseUrl: string } {
  const baseUrl = config.bank.baseUrl ?? sandboxUrl ?? `http://${config.sandbox.host}:${config.sandbox.port}`;
  return { ...config.bank, baseUrl };
}

import type { BankConfig, Config } from '../config.js';

/**
 * Where the worker, the starter's bank reads and the CLI reach the bank: BANK_BASE_URL, else the local
 * sandbox's address from the config (development only; nothing of the sandbox itself is loaded).
 */
export function resolveBank(config: Config, sandboxUrl?: string): BankConfig & { baseUrl: string } {
  const baseUrl = config.bank.baseUrl ?? sandboxUrl ?? `http://${config.sandbox.host}:${config.sandbox.port}`;
  return { ...config.bank, baseUrl };
}

import { BankClient } from '../bank/client.js';
import type { BankReadContext } from '../starter/index.js';
import { resolveBank } from '../stack/bank-url.js';
import type { CliContext } from './context.js';

/** Bank reads go straight to the bank the worker uses: BANK_BASE_URL, else the local sandbox. */
export function bankReadContext(ctx: CliContext): BankReadContext {
  return { bank: new BankClient(resolveBank(ctx.config), ctx.logger) };
}

import { resolveBank } from '../bank/base-url.js';
import type { BankClient } from '../bank/client.js';
import type { BankReadContext } from '../starter/index.js';
import { cliContext, type CliContext } from './context.js';

/**
 * A client of the bank the worker uses: BANK_BASE_URL, else the local sandbox. Loaded when a command runs.
 */
async function bankClient(ctx: CliContext): Promise<BankClient> {
  const { BankClient } = await import('../bank/client.js');
  // A failed call is the command's one error line already; the client's warning would say it twice on stderr.
  // Asking for debug logs still shows every call.
  const level = ctx.logger.isLevelEnabled('debug') ? ctx.logger.level : 'error';
  return new BankClient(resolveBank(ctx.config), ctx.logger.child({}, { level }));
}

/** What the starters' bank reads need. */
export async function bankReadContext(ctx: CliContext): Promise<BankReadContext> {
  return { bank: await bankClient(ctx) };
}

/** A bank client for a read command, configured from the environment. */
export async function cliBank(): Promise<BankClient> {
  return bankClient(await cliContext());
}

import type { Logger } from 'pino';
import { resolveBank } from '../../src/bank/base-url.js';
import type { BankConfig, TemporalConfig } from '../../src/config.js';
import type { DevConfig } from '../config.js';
import { startCheckout } from './checkout-process.js';
import { startApiServer } from '../../src/stack/api-process.js';
import { startReceiver } from '../../src/stack/receiver-process.js';
import { startConfiguredSandbox } from './sandbox-process.js';

export interface RunningStack {
  urls: Record<string, string>;
  stop(): Promise<void>;
}

/** What a stack started so far, stopped in reverse order. */
export interface StackParts {
  urls: Record<string, string>;
  add(stop: () => Promise<void>): void;
}

/**
 * Builds a stack part by part; a failure half-way stops what already started, and `stop()` stops everything
 * in reverse order, going on past a part that fails to stop.
 */
export async function buildStack(
  logger: Logger,
  build: (parts: StackParts) => Promise<void>,
): Promise<RunningStack> {
  const stops: (() => Promise<void>)[] = [];
  const urls: Record<string, string> = {};
  const stop = async () => {
    for (const stopOne of stops.splice(0).reverse()) {
      try {
        await stopOne();
      } catch (error) {
        logger.error({ err: error }, 'failed to stop a stack component');
      }
    }
  };
  try {
    await build({ urls, add: (stopOne) => stops.push(stopOne) });
    return { urls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The webhook receiver and, unless BANK_BASE_URL is set, the sandbox bank delivering its webhooks to it with
 * the reference checkout page. Returns the bank the workers call.
 */
export async function startBankSide(
  parts: StackParts,
  config: DevConfig,
  temporal: TemporalConfig,
  logger: Logger,
): Promise<BankConfig & { baseUrl: string }> {
  const receiver = await startReceiver(config, temporal, logger);
  parts.add(() => receiver.stop());
  parts.urls['Webhook receiver'] = `${receiver.url}/webhooks`;

  let sandboxUrl: string | undefined;
  if (!config.bank.baseUrl) {
    const sandbox = await startConfiguredSandbox(config, logger, `${receiver.url}/webhooks`);
    parts.add(() => sandbox.stop());
    sandboxUrl = sandbox.url;
    parts.urls['Sandbox bank'] = sandbox.url;
    parts.urls['Sandbox token'] = sandbox.shownControlToken;
    const checkout = await startCheckout(config, temporal, resolveBank(config, sandbox.url), sandbox, logger);
    parts.add(() => checkout.stop());
    parts.urls['Checkout page'] = checkout.url;
  }
  const bank = resolveBank(config, sandboxUrl);
  parts.urls['Bank API'] = bank.baseUrl;
  return bank;
}

/**
 * The merchant HTTP API (`bankflow api`) in the stack's process, when keys open it: the development key by
 * default in development, API_KEYS otherwise. Without keys the stack runs without it and says so.
 */
export async function startMerchantApi(
  parts: StackParts,
  config: DevConfig,
  temporal: TemporalConfig,
  bank: BankConfig & { baseUrl: string },
  logger: Logger,
): Promise<void> {
  if (config.api.keys.length === 0) {
    parts.urls['Merchant API'] = 'not started: set API_KEYS (bankflow api-key create <name> prints an entry)';
    return;
  }
  const api = await startApiServer(config, temporal, bank, logger);
  parts.add(() => api.stop());
  parts.urls['Merchant API'] = api.url;
  if (api.developmentKey) parts.urls['API key (development)'] = api.developmentKey;
}

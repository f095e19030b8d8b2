import { resolveBank } from '../bank/base-url.js';
import { BankClient } from '../bank/client.js';
import { loadConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { connectClient } from '../temporal/connection.js';
import type { StarterContext } from './context.js';
import type { BankReadContext } from './devices.js';

/**
 * A starter context configured like the worker: the Temporal profile (TEMPORAL_* variables over the
 * `temporal.toml` profile TEMPORAL_PROFILE names), the task queue and the payload encryption keys, so the
 * merchant backend and the workers read each other's (encrypted) payloads. `close()` releases the connection.
 */
export async function connectStarter(
  env: Record<string, string | undefined> = process.env,
): Promise<StarterContext & { close(): Promise<void> }> {
  const { temporal, support } = loadConfig(env);
  const client = await connectClient(temporal);
  return {
    client,
    taskQueue: temporal.taskQueue,
    customerKeySecret: support.lookupSecret,
    close: () => client.connection.close(),
  };
}

/** The bank reads of the biometric flow (device, participants) with the worker's BANK_* settings. */
export function connectBankReads(env: Record<string, string | undefined> = process.env): BankReadContext {
  const config = loadConfig(env);
  return { bank: new BankClient(resolveBank(config), createLogger(config.logLevel)) };
}

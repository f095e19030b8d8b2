import type { Logger } from 'pino';
import { createApiServer } from '../api/app.js';
import { developmentApiKey, developmentApiKeyEntry } from '../api/keys.js';
import { BankClient } from '../bank/client.js';
import { type BankConfig, type Config, type TemporalConfig, ConfigError } from '../config.js';
import { connectClient } from '../temporal/connection.js';

export interface RunningApi {
  url: string;
  /** The public development key, when API_KEYS is unset in development (the banner prints it). */
  developmentKey: string | undefined;
  stop(): Promise<void>;
}

/**
 * The merchant HTTP API on API_HOST:API_PORT, starting workflows through its own Temporal client (the
 * worker's profile, task queue and payload keys) and reading the bank with the worker's BANK_* settings.
 * Without API_KEYS it does not start: nothing would open it, or in production anyone would.
 */
export async function startApiServer(
  config: Config,
  temporal: TemporalConfig,
  bank: BankConfig & { baseUrl: string },
  logger: Logger,
): Promise<RunningApi> {
  const { api } = config;
  if (api.keys.length === 0)
    throw new ConfigError([
      {
        variable: 'API_KEYS',
        reason:
          'is required to start the merchant API: mint a key with bankflow api-key create <name> and set the entry it prints',
      },
    ]);
  const client = await connectClient(temporal);
  const stop = () => client.connection.close();
  try {
    const app = await createApiServer({
      starter: { client, taskQueue: temporal.taskQueue, customerKeySecret: config.support.lookupSecret },
      bank: { bank: new BankClient(bank, logger) },
      keys: api.keys,
      developmentKeys: config.env === 'development' ? 'accepted' : 'refused',
      rateLimitPerMinute: api.rateLimitPerMinute,
      logger,
    });
    const url = await app.listen({ host: api.host, port: api.port });
    const usesDevelopmentKey = api.keys.some((entry) => entry.sha256 === developmentApiKeyEntry.sha256);
    return {
      url,
      developmentKey: usesDevelopmentKey ? developmentApiKey : undefined,
      stop: async () => {
        await app.close();
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

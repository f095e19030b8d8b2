import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { startSandbox, type RunningSandbox } from '../sandbox/app.js';

/**
 * The sandbox bank on SANDBOX_HOST:SANDBOX_PORT, accepting the worker's own client credentials. Its webhooks go
 * to SANDBOX_WEBHOOK_URL, else to `defaultWebhookUrl` (the dev stack's own receiver), else nowhere.
 */
export function startConfiguredSandbox(
  config: Config,
  logger: Logger,
  defaultWebhookUrl?: string,
): Promise<RunningSandbox> {
  return startSandbox({
    host: config.sandbox.host,
    port: config.sandbox.port,
    seed: config.sandbox.seed,
    credentials: { clientId: config.bank.clientId, clientSecret: config.bank.clientSecret },
    logger,
    webhookUrl: config.sandbox.webhookUrl ?? defaultWebhookUrl,
    webhookSecret: config.sandbox.webhookSecret,
    rateLimit: config.sandbox.rateLimitPerSecond
      ? { requestsPerSecond: config.sandbox.rateLimitPerSecond }
      : undefined,
  });
}

import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { DevConfig } from '../config.js';
import { startSandbox, type RunningSandbox } from '../sandbox/app.js';
import { writeControlToken } from '../sandbox/control-token-file.js';

/**
 * The sandbox bank on SANDBOX_HOST:SANDBOX_PORT, accepting the worker's own client credentials. Its webhooks
 * go to SANDBOX_WEBHOOK_URL, else to `defaultWebhookUrl` (the dev stack's own receiver), else nowhere. Its
 * control API takes SANDBOX_CONTROL_TOKEN, else a token generated for this run, left in the data directory
 * for the CLI.
 */
export async function startConfiguredSandbox(
  config: DevConfig,
  logger: Logger,
  defaultWebhookUrl?: string,
): Promise<RunningSandbox & { controlToken: string; shownControlToken: string }> {
  const controlToken = config.sandbox.controlToken ?? randomBytes(24).toString('hex');
  const sandbox = await startSandbox({
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
    access: { controlToken, hosts: [config.sandbox.host] },
  });
  writeControlToken(config.dataDir, controlToken);
  // A configured token is a secret: the banner names where it comes from; a generated one is printed to be
  // used.
  const shownControlToken = config.sandbox.controlToken ? 'SANDBOX_CONTROL_TOKEN' : controlToken;
  return { ...sandbox, controlToken, shownControlToken };
}

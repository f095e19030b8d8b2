import type { Logger } from 'pino';
import { type Config, type TemporalConfig, ConfigError } from '../config.js';
import { connectClient } from '../temporal/connection.js';
import { createInternalServer, createReceiver } from '../webhooks/app.js';
import { bankflowRouter } from '../webhooks/routes.js';

export interface RunningReceiver {
  url: string;
  /** Where Prometheus scrapes it: on the internal server when WEBHOOK_INTERNAL_PORT is set. */
  metricsUrl: string;
  stop(): Promise<void>;
}

/**
 * The webhook receiver on WEBHOOK_HOST:WEBHOOK_PORT, signalling workflows through its own Temporal client;
 * its /metrics and /readyz on METRICS_HOST:WEBHOOK_INTERNAL_PORT instead when that is set.
 */
export async function startReceiver(
  config: Config,
  temporal: TemporalConfig,
  logger: Logger,
): Promise<RunningReceiver> {
  const { webhooks } = config;
  if (!webhooks.authDisabled && webhooks.secrets.length === 0) {
    throw new ConfigError([
      {
        variable: 'WEBHOOK_SECRET',
        reason: 'is required to authenticate the bank (or WEBHOOK_AUTH_DISABLED=true in development)',
      },
    ]);
  }
  if (webhooks.acceptSecretHeader) {
    logger.warn(
      'WEBHOOK_ACCEPT_SECRET_HEADER=true: a request with the secret header and no signature is accepted, so ' +
        'anyone who reads one request can post any body; unset it once the bank signs its webhooks',
    );
  }
  const client = await connectClient(temporal);
  const internal = webhooks.internal && createInternalServer(logger);
  const app = createReceiver({
    client,
    taskQueue: temporal.taskQueue,
    auth: {
      secrets: webhooks.secrets,
      disabled: webhooks.authDisabled,
      acceptSecretHeader: webhooks.acceptSecretHeader,
    },
    maxAgeMs: webhooks.maxAgeMs,
    router: bankflowRouter,
    logger,
    internal,
  });
  const stop = async () => {
    await app.close();
    await internal?.close();
    await client.connection.close();
  };
  try {
    const address = await app.listen({ host: webhooks.host, port: webhooks.port });
    const internalAddress =
      internal && webhooks.internal ? await internal.listen(webhooks.internal) : address;
    return { url: address, metricsUrl: `${internalAddress}/metrics`, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

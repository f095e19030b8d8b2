import { z } from 'zod';
import { secret } from '../config-secrets.js';
import { developmentWebhookSecret } from '../development.js';
import { defaultWebhookMaxAgeSeconds } from '../webhooks/freshness.js';
import { flag, optionalPort, optionalText, port, type Parsed } from './fields.js';
import type { GeneralEnv } from './general.js';
import type { WorkerEnv } from './worker.js';

/** The webhook receiver: where it listens, and how it authenticates the bank. */
export const webhookVariables = {
  WEBHOOK_HOST: z.string().min(1).default('127.0.0.1'),
  WEBHOOK_PORT: port(4020),
  /**
   * Serves the receiver's /metrics and /readyz on METRICS_HOST at this port, and no longer on WEBHOOK_PORT
   * (which keeps /healthz for load balancers). Unset: all on WEBHOOK_PORT.
   */
  WEBHOOK_INTERNAL_PORT: optionalPort,
  WEBHOOK_SECRET: secret(optionalText),
  WEBHOOK_SECRET_PREVIOUS: secret(optionalText),
  WEBHOOK_AUTH_DISABLED: flag(false),
  /**
   * Accept a webhook with the shared secret header and no signature; the secret then works as a bearer token.
   */
  WEBHOOK_ACCEPT_SECRET_HEADER: flag(false),
  /** Refuse webhooks whose envelope timestamp is older than this (replay protection); 0 turns it off. */
  WEBHOOK_MAX_AGE_SECONDS: z.coerce
    .number()
    .int()
    .min(0, { message: 'must be a number of seconds (e.g. 300)' })
    .max(86_400, {
      message:
        'must be at most 86400 (a day): each receiver remembers the events it took for that long, and past a ' +
        'restart a recorded event inside the window is taken again',
    })
    .default(defaultWebhookMaxAgeSeconds),
};

export type WebhookEnv = Parsed<typeof webhookVariables>;

export interface WebhooksConfig {
  host: string;
  port: number;
  secrets: string[];
  authDisabled: boolean;
  acceptSecretHeader: boolean;
  /** Undefined when the freshness check is off (development only). */
  maxAgeMs: number | undefined;
  /** Where /metrics and /readyz are served apart from the public port; on the public port when undefined. */
  internal: { host: string; port: number } | undefined;
}

export function webhooksConfig(
  env: WebhookEnv & Pick<GeneralEnv, 'BANKFLOW_ENV'> & Pick<WorkerEnv, 'METRICS_HOST'>,
): WebhooksConfig {
  return {
    host: env.WEBHOOK_HOST,
    port: env.WEBHOOK_PORT,
    // In development the receiver trusts the sandbox's secret by default, so the local stack works as is.
    secrets: [
      env.WEBHOOK_SECRET ?? (env.BANKFLOW_ENV === 'development' ? developmentWebhookSecret : undefined),
      env.WEBHOOK_SECRET_PREVIOUS,
    ].filter((secret): secret is string => Boolean(secret)),
    authDisabled: env.WEBHOOK_AUTH_DISABLED,
    acceptSecretHeader: env.WEBHOOK_ACCEPT_SECRET_HEADER,
    maxAgeMs: env.WEBHOOK_MAX_AGE_SECONDS === 0 ? undefined : env.WEBHOOK_MAX_AGE_SECONDS * 1000,
    internal:
      env.WEBHOOK_INTERNAL_PORT === undefined
        ? undefined
        : { host: env.METRICS_HOST, port: env.WEBHOOK_INTERNAL_PORT },
  };
}

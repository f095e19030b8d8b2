import type { Env } from './config.js';
import {
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
  sandboxBankCredentials,
} from './development.js';
import { parseEncryptionKeys } from './temporal/encryption.js';
import { defaultWebhookMaxAgeSeconds } from './webhooks/freshness.js';

/** One thing production refuses: the variable to fix, and what the error says about it (docs/security.md). */
export interface ProductionCheck {
  variable: keyof Env & string;
  message: string;
  refuses(env: Env): boolean;
}

const developmentKey = parseEncryptionKeys(developmentEncryptionKeys)[0]?.key;

/** True when the keys parse and one of them is the public development key; a bad format is reported apart. */
function holdsDevelopmentKey(keys: string): boolean {
  try {
    return parseEncryptionKeys(keys).some(
      (entry) => developmentKey !== undefined && entry.key.equals(developmentKey),
    );
  } catch {
    return false;
  }
}

const temporalSecured = (env: Env) =>
  env.TEMPORAL_TLS ||
  Boolean(env.TEMPORAL_TLS_CERT_PATH) ||
  Boolean(env.TEMPORAL_TLS_CA_PATH) ||
  Boolean(env.TEMPORAL_API_KEY) ||
  env.TEMPORAL_PLAINTEXT_ALLOWED;

/** What BANKFLOW_ENV=production refuses at configuration time, in the order the errors are listed. */
export const productionChecks: ProductionCheck[] = [
  {
    variable: 'BANK_BASE_URL',
    message: 'is required when BANKFLOW_ENV=production (the sandbox bank is for development only)',
    refuses: (env) => env.BANK_BASE_URL === undefined,
  },
  {
    variable: 'BANK_BASE_URL',
    message:
      'must be an https:// URL when BANKFLOW_ENV=production (bank credentials and customer data cross it); ' +
      "use the bank's https address",
    refuses: (env) => env.BANK_BASE_URL !== undefined && new URL(env.BANK_BASE_URL).protocol !== 'https:',
  },
  {
    variable: 'BANK_CLIENT_ID',
    message:
      "is the sandbox bank's client id (the default) when BANKFLOW_ENV=production; set the client id the bank issued you",
    refuses: (env) => env.BANK_CLIENT_ID === sandboxBankCredentials.clientId,
  },
  {
    variable: 'BANK_CLIENT_SECRET',
    message:
      "is the sandbox bank's secret (the default) when BANKFLOW_ENV=production; set the client secret the bank issued you",
    refuses: (env) => env.BANK_CLIENT_SECRET === sandboxBankCredentials.clientSecret,
  },
  {
    variable: 'TEMPORAL_TLS',
    message:
      'is off and TEMPORAL_API_KEY is unset: BANKFLOW_ENV=production refuses plaintext Temporal; set TEMPORAL_TLS=true ' +
      '(or a TLS CA or client certificate, or TEMPORAL_API_KEY), or TEMPORAL_PLAINTEXT_ALLOWED=true when a sidecar ' +
      'or service mesh encrypts the connection',
    refuses: (env) => !temporalSecured(env),
  },
  {
    variable: 'TEMPORAL_ENCRYPTION_KEYS',
    message: 'is required when BANKFLOW_ENV=production (customer data is encrypted in Temporal payloads)',
    refuses: (env) => env.TEMPORAL_ENCRYPTION_KEYS === undefined,
  },
  {
    variable: 'TEMPORAL_ENCRYPTION_KEYS',
    message: 'holds the public development key; generate your own (openssl rand -base64 32)',
    refuses: (env) =>
      env.TEMPORAL_ENCRYPTION_KEYS !== undefined && holdsDevelopmentKey(env.TEMPORAL_ENCRYPTION_KEYS),
  },
  {
    variable: 'CODEC_AUTH_USERS',
    message:
      'or CODEC_AUTH_TOKENS is required when BANKFLOW_ENV=production (the codec server decrypts customer data)',
    refuses: (env) => !env.CODEC_AUTH_USERS && !env.CODEC_AUTH_TOKENS,
  },
  {
    variable: 'WEBHOOK_AUTH_DISABLED',
    message: 'cannot be true when BANKFLOW_ENV=production',
    refuses: (env) => env.WEBHOOK_AUTH_DISABLED,
  },
  {
    variable: 'WEBHOOK_MAX_AGE_SECONDS',
    message:
      'cannot be 0 when BANKFLOW_ENV=production (a recorded webhook could be replayed forever); ' +
      `unset it for ${defaultWebhookMaxAgeSeconds} s or set it above the bank's retry span for one event`,
    refuses: (env) => env.WEBHOOK_MAX_AGE_SECONDS === 0,
  },
  {
    variable: 'WEBHOOK_SECRET',
    message:
      'is the public development secret; set the secret you share with the bank (openssl rand -base64 32)',
    refuses: (env) => env.WEBHOOK_SECRET === developmentWebhookSecret,
  },
  {
    variable: 'WEBHOOK_SECRET_PREVIOUS',
    message: 'is the public development secret; unset it, or set the secret the bank signed with before',
    refuses: (env) => env.WEBHOOK_SECRET_PREVIOUS === developmentWebhookSecret,
  },
  {
    variable: 'SUPPORT_LOOKUP_SECRET',
    message:
      'is required when BANKFLOW_ENV=production (it keys the customer hashes support staff search by; openssl rand -base64 32)',
    refuses: (env) => env.SUPPORT_LOOKUP_SECRET === undefined,
  },
  {
    variable: 'SUPPORT_LOOKUP_SECRET',
    message: 'is the public development secret; generate your own (openssl rand -base64 32)',
    refuses: (env) => env.SUPPORT_LOOKUP_SECRET === developmentSupportLookupSecret,
  },
];

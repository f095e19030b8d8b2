import { developmentApiKeyEntry } from './api/keys.js';
import type { Env } from './config/sections.js';
import { plaintextEndpointPositions } from './config/notifications.js';
import { temporalConnectionProtected } from './config/temporal-connection.js';
import type { TemporalProfile } from './config/temporal-profile.js';
import {
  developmentEncryptionKeys,
  developmentSupportLookupSecret,
  developmentWebhookSecret,
  sandboxBankCredentials,
} from './development.js';
import { parseEncryptionKeys, type EncryptionKey } from './temporal/encryption.js';
import { defaultWebhookMaxAgeSeconds } from './webhooks/freshness.js';

/**
 * One thing production refuses: the variable to fix, and what the error says about it (docs/security.md). The
 * Temporal profile is Temporal's own configuration (src/config/temporal-profile.ts), read next to bankflow's.
 */
export interface ProductionCheck {
  variable: string;
  message: string;
  refuses(env: Env, temporal: TemporalProfile): boolean;
  /** Which entries of the variable are refused, by what names them and is no secret (a key id, a user). */
  which?(env: Env, temporal: TemporalProfile): string;
}

/**
 * The strength production asks of a secret (docs/security.md, "Strength and form of secrets"): 32 characters
 * for one the operator generates, 16 for one a person types or another party issues; and at least 8 different
 * characters, so a repeated character or a short pattern does not pass on its length.
 */
const generatedSecretLength = 32;
const issuedSecretLength = 16;
const distinctCharacters = 8;

const weak = (value: string, length: number) =>
  value.length < length || new Set(value).size < distinctCharacters;

/** The user of each `user:password` pair whose password is weak. */
const weakPasswordUsers = (pairs: string[]) =>
  pairs
    .map((pair) => [pair.slice(0, pair.indexOf(':')), pair.slice(pair.indexOf(':') + 1)] as const)
    .filter(([, password]) => weak(password, issuedSecretLength))
    .map(([user]) => user);

/** The position of each weak token, counted from 1: a token has no name that is not itself. */
const weakTokenPositions = (tokens: string[]) =>
  tokens.flatMap((token, index) => (weak(token, generatedSecretLength) ? [String(index + 1)] : []));

/**
 * 32 random bytes hold about 30 different values and are almost never all printable: fewer than 16 different
 * values is a repeated byte or a short pattern, all printable is a passphrase, and either is guessable.
 */
const randomLooking = (key: Buffer) =>
  new Set(key).size >= 16 && !key.every((byte) => byte >= 0x20 && byte <= 0x7e);

/** The keys as parsed; none when they are unset or do not parse, which the schema reports apart. */
function parsedKeys(keys: string | undefined): EncryptionKey[] {
  try {
    return keys === undefined ? [] : parseEncryptionKeys(keys);
  } catch {
    return [];
  }
}

/** The ids of the keys that cannot be random bytes. */
const nonRandomKeyIds = (keys: string | undefined) =>
  parsedKeys(keys)
    .filter((entry) => !randomLooking(entry.key))
    .map((entry) => entry.id);

const secretStrength = `at least ${generatedSecretLength} characters, of at least ${distinctCharacters} different ones`;
const issuedStrength = `at least ${issuedSecretLength} characters, of at least ${distinctCharacters} different ones`;

const developmentKey = parseEncryptionKeys(developmentEncryptionKeys)[0]?.key;

/** True when one of the keys is the public development key. */
const holdsDevelopmentKey = (keys: string | undefined) =>
  parsedKeys(keys).some((entry) => developmentKey !== undefined && entry.key.equals(developmentKey));

/**
 * A shared signing secret the operator generates, for each of `variables`: refused when set and weaker than
 * `secretStrength`, saying what guessing it allows. `checkedApart` is a value another check refuses with its
 * own message (the public development secret).
 */
function strongSecretChecks(
  variables: readonly (
    'WEBHOOK_SECRET' | 'WEBHOOK_SECRET_PREVIOUS' | 'NOTIFY_SECRET' | 'NOTIFY_SECRET_PREVIOUS'
  )[],
  guessing: string,
  checkedApart?: string,
): ProductionCheck[] {
  return variables.map((variable) => ({
    variable,
    message: `must be ${secretStrength}, when BANKFLOW_ENV=production (${guessing}; openssl rand -base64 32)`,
    refuses: (env) => {
      const value = env[variable];
      return value !== undefined && value !== checkedApart && weak(value, generatedSecretLength);
    },
  }));
}

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
    variable: 'BANK_CLIENT_SECRET',
    message: `must be ${issuedStrength}, when BANKFLOW_ENV=production; ask the bank for a longer client secret`,
    refuses: (env) =>
      env.BANK_CLIENT_SECRET !== sandboxBankCredentials.clientSecret &&
      weak(env.BANK_CLIENT_SECRET, issuedSecretLength),
  },
  {
    variable: 'TEMPORAL_API_KEY',
    message: `must be ${issuedStrength}, when BANKFLOW_ENV=production; use the API key Temporal issued`,
    refuses: (_env, temporal) => temporal.apiKey !== undefined && weak(temporal.apiKey, issuedSecretLength),
  },
  {
    variable: 'TEMPORAL_TLS',
    message:
      'is off in the Temporal profile and no API key turns it on: BANKFLOW_ENV=production refuses plaintext ' +
      'Temporal; set TEMPORAL_TLS=true (or a TEMPORAL_TLS_SERVER_CA_CERT_PATH, a client certificate, ' +
      'TEMPORAL_API_KEY, or the same in the temporal.toml profile), or TEMPORAL_PLAINTEXT_ALLOWED=true when a ' +
      'sidecar or service mesh encrypts the connection',
    refuses: (env, temporal) => !temporalConnectionProtected(env, temporal),
    which: (_env, temporal) => temporal.source,
  },
  {
    variable: 'TEMPORAL_ENCRYPTION_KEYS',
    message: 'is required when BANKFLOW_ENV=production (customer data is encrypted in Temporal payloads)',
    refuses: (env) => env.TEMPORAL_ENCRYPTION_KEYS === undefined,
  },
  {
    variable: 'TEMPORAL_ENCRYPTION_KEYS',
    message: 'holds the public development key; generate your own (openssl rand -base64 32)',
    refuses: (env) => holdsDevelopmentKey(env.TEMPORAL_ENCRYPTION_KEYS),
  },
  {
    variable: 'TEMPORAL_ENCRYPTION_KEYS',
    message:
      'holds a key that is not random bytes (a repeated byte, a short pattern or text) when BANKFLOW_ENV=production; ' +
      'generate each key with openssl rand -base64 32',
    refuses: (env) => nonRandomKeyIds(env.TEMPORAL_ENCRYPTION_KEYS).length > 0,
    which: (env) => `key ${nonRandomKeyIds(env.TEMPORAL_ENCRYPTION_KEYS).join(', ')}`,
  },
  {
    variable: 'CODEC_AUTH_USERS',
    message:
      'or CODEC_AUTH_TOKENS is required when BANKFLOW_ENV=production (the codec server decrypts customer data; ' +
      'CODEC_ENCODE_USERS and CODEC_ENCODE_TOKENS count too)',
    refuses: (env) =>
      [env.CODEC_AUTH_USERS, env.CODEC_AUTH_TOKENS, env.CODEC_ENCODE_USERS, env.CODEC_ENCODE_TOKENS].every(
        (credentials) => credentials.length === 0,
      ),
  },
  ...(['CODEC_AUTH_USERS', 'CODEC_ENCODE_USERS'] as const).map((variable): ProductionCheck => ({
    variable,
    message: `needs passwords of ${issuedStrength}, when BANKFLOW_ENV=production`,
    refuses: (env) => weakPasswordUsers(env[variable]).length > 0,
    which: (env) => `user ${weakPasswordUsers(env[variable]).join(', ')}`,
  })),
  ...(['CODEC_AUTH_TOKENS', 'CODEC_ENCODE_TOKENS'] as const).map((variable): ProductionCheck => ({
    variable,
    message: `needs tokens of ${secretStrength}, when BANKFLOW_ENV=production (openssl rand -base64 32)`,
    refuses: (env) => weakTokenPositions(env[variable]).length > 0,
    which: (env) => `token ${weakTokenPositions(env[variable]).join(', ')}`,
  })),
  ...(['REPORTS_S3_REGION', 'REPORTS_S3_ACCESS_KEY_ID', 'REPORTS_S3_SECRET_ACCESS_KEY'] as const).map(
    (variable): ProductionCheck => ({
      variable,
      message:
        'is required when REPORTS_STORE=s3 and BANKFLOW_ENV=production (every worker of a fleet must reach ' +
        'the same bucket the same way, not by what the SDK finds on each host)',
      refuses: (env) => env.REPORTS_STORE === 's3' && env[variable] === undefined,
    }),
  ),
  {
    variable: 'REPORTS_S3_ENDPOINT',
    message: 'must be an https:// URL when BANKFLOW_ENV=production (reports hold customer data)',
    refuses: (env) =>
      env.REPORTS_STORE === 's3' &&
      env.REPORTS_S3_ENDPOINT !== undefined &&
      new URL(env.REPORTS_S3_ENDPOINT).protocol !== 'https:',
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
  ...strongSecretChecks(
    ['WEBHOOK_SECRET', 'WEBHOOK_SECRET_PREVIOUS'],
    'whoever guesses it posts events as the bank',
    developmentWebhookSecret,
  ),
  {
    variable: 'API_KEYS',
    message:
      'holds the public development key when BANKFLOW_ENV=production; mint your own (bankflow api-key create <name>)',
    refuses: (env) => env.API_KEYS.some((entry) => entry.sha256 === developmentApiKeyEntry.sha256),
    which: (env) =>
      `key ${env.API_KEYS.filter((entry) => entry.sha256 === developmentApiKeyEntry.sha256)
        .map((entry) => entry.name)
        .join(', ')}`,
  },
  {
    variable: 'NOTIFY_ENDPOINTS',
    message:
      'must be https:// URLs when BANKFLOW_ENV=production (notifications carry customer payments); ' +
      'http:// is kept for an endpoint on this host (localhost, 127.0.0.1, [::1])',
    refuses: (env) => plaintextEndpointPositions(env.NOTIFY_ENDPOINTS).length > 0,
    which: (env) => `entry ${plaintextEndpointPositions(env.NOTIFY_ENDPOINTS).join(', ')}`,
  },
  {
    variable: 'NOTIFY_TEST_SPEEDUP',
    message:
      "is for bankflow's own tests only and is refused when BANKFLOW_ENV=production (merchants get the 30 s first retry)",
    refuses: (env) => env.NOTIFY_TEST_SPEEDUP !== undefined,
  },
  ...strongSecretChecks(
    ['NOTIFY_SECRET', 'NOTIFY_SECRET_PREVIOUS'],
    'whoever guesses it posts notifications as bankflow',
  ),
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
  {
    variable: 'SUPPORT_LOOKUP_SECRET',
    message: `must be ${secretStrength}, when BANKFLOW_ENV=production (openssl rand -base64 32)`,
    refuses: (env) =>
      env.SUPPORT_LOOKUP_SECRET !== undefined && weak(env.SUPPORT_LOOKUP_SECRET, generatedSecretLength),
  },
];

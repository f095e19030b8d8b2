import { createHash } from 'node:crypto';
import { parseEncryptionKeys, type EncryptionKey } from '../temporal/encryption.js';
import type { Env } from './sections.js';
import type { ProfileProblem, TemporalProfile } from './temporal-profile.js';

/**
 * One secret a variable holds, by its SHA-256 only: what production compares, so no value is kept or shown.
 * `role` is what the secret opens; the current and previous secret of one role may be equal.
 */
interface HeldSecret {
  variable: string;
  role: string;
  /** What names the entry in a variable of several (a key id, a user, a position): never the secret. */
  which?: string;
  /** The hex SHA-256 of each form the secret may be written in. */
  digests: string[];
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `Bearer <token>` and the like: the token is the secret another variable may hold as it is. */
const withoutScheme = (value: string) => value.replace(/^(bearer|basic|token|apikey)\s+/i, '');

const plain = (variable: string, role: string, value: string | undefined, which?: string): HeldSecret[] =>
  value === undefined || value === ''
    ? []
    : [
        {
          variable,
          role,
          ...(which ? { which } : {}),
          digests: [...new Set([value, withoutScheme(value)])].map(sha256),
        },
      ];

/** The keys as parsed; none when they do not parse, which the schema reports apart. */
function encryptionKeys(keys: string | undefined): EncryptionKey[] {
  try {
    return keys === undefined ? [] : parseEncryptionKeys(keys);
  } catch {
    return [];
  }
}

/** A key is the same secret as a variable holding its base64 or base64url, padded or not. */
const keyForms = (key: Buffer) => {
  const base64 = key.toString('base64');
  const base64url = key.toString('base64url');
  return [base64, base64.replace(/=+$/, ''), base64url];
};

/** The password of each `user:password` entry, named by its user. */
const passwords = (variable: string, role: string, pairs: string[]) =>
  pairs.flatMap((pair) => {
    const colon = pair.indexOf(':');
    return plain(variable, role, pair.slice(colon + 1), `user ${pair.slice(0, colon)}`);
  });

const tokens = (variable: string, role: string, list: string[]) =>
  list.flatMap((token, index) => plain(variable, role, token, `token ${index + 1}`));

const headerValues = (variable: (name: string) => string, role: string, headers: Record<string, string>) =>
  Object.entries(headers).flatMap(([name, value]) => plain(variable(name), role, value, `header ${name}`));

/**
 * Every secret the configuration holds, each with the role it serves, in the order the configuration lists
 * the variables. The Temporal TLS certificate and key data are left out: a PEM is no value another variable
 * holds.
 */
function heldSecrets(env: Env, temporal: TemporalProfile): HeldSecret[] {
  return [
    ...plain('BANK_CLIENT_SECRET', 'the bank credentials', env.BANK_CLIENT_SECRET),
    ...plain('TEMPORAL_API_KEY', 'the Temporal API key', temporal.apiKey),
    ...headerValues(
      (name) => `TEMPORAL_GRPC_META_${name.toUpperCase().replaceAll('-', '_')}`,
      'the Temporal gRPC headers',
      temporal.metadata ?? {},
    ),
    ...encryptionKeys(env.TEMPORAL_ENCRYPTION_KEYS).map((entry) => ({
      variable: 'TEMPORAL_ENCRYPTION_KEYS',
      role: 'payload encryption',
      which: `key ${entry.id}`,
      digests: keyForms(entry.key).map(sha256),
    })),
    ...plain('WEBHOOK_SECRET', 'bank webhooks', env.WEBHOOK_SECRET),
    ...plain('WEBHOOK_SECRET_PREVIOUS', 'bank webhooks', env.WEBHOOK_SECRET_PREVIOUS),
    ...passwords('CODEC_AUTH_USERS', 'decoding payloads', env.CODEC_AUTH_USERS),
    ...tokens('CODEC_AUTH_TOKENS', 'decoding payloads', env.CODEC_AUTH_TOKENS),
    ...passwords('CODEC_ENCODE_USERS', 'encoding payloads', env.CODEC_ENCODE_USERS),
    ...tokens('CODEC_ENCODE_TOKENS', 'encoding payloads', env.CODEC_ENCODE_TOKENS),
    // Hashes only: another secret is the same key when its SHA-256 is one of them.
    ...env.API_KEYS.map((entry) => ({
      variable: 'API_KEYS',
      role: 'the merchant API',
      which: `key ${entry.name}`,
      digests: [entry.sha256],
    })),
    ...plain('NOTIFY_SECRET', 'merchant notifications', env.NOTIFY_SECRET),
    ...plain('NOTIFY_SECRET_PREVIOUS', 'merchant notifications', env.NOTIFY_SECRET_PREVIOUS),
    ...plain('REPORTS_S3_SECRET_ACCESS_KEY', 'the report store', env.REPORTS_S3_SECRET_ACCESS_KEY),
    ...headerValues(() => 'OTEL_EXPORTER_OTLP_HEADERS', 'trace export', env.OTEL_EXPORTER_OTLP_HEADERS),
    ...plain('SUPPORT_LOOKUP_SECRET', 'customer lookups', env.SUPPORT_LOOKUP_SECRET),
  ];
}

/** What production says of a secret reused across roles: the fix, never the value. */
export const reusedSecretMessage =
  'when BANKFLOW_ENV=production: whoever holds one could act in the role of the other; give each its own ' +
  '(openssl rand -base64 32)';

const named = (secret: HeldSecret) => `${secret.variable}${secret.which ? ` (${secret.which})` : ''}`;

/**
 * One problem per pair of secrets of different roles that are the same value, under the first of the two,
 * naming both: the merchant who holds NOTIFY_SECRET must not be able to sign the bank's webhooks, a
 * decode-only codec token must not encode, and so on.
 */
export function reusedSecretProblems(env: Env, temporal: TemporalProfile): ProfileProblem[] {
  const held = heldSecrets(env, temporal);
  return held.flatMap((secret, index) =>
    held
      .slice(index + 1)
      .filter((other) => other.role !== secret.role && other.digests.some((d) => secret.digests.includes(d)))
      .map((other) => ({
        variable: secret.variable,
        message: `${secret.which ? `${secret.which} ` : ''}is the same secret as ${named(other)}, ${reusedSecretMessage}`,
      })),
  );
}

import { defaultPayloadConverter } from '@temporalio/common';
import { developmentApiKeyEntry } from '../api/keys.js';
import type { Config } from '../config.js';
import { developmentWebhookSecret } from '../development.js';
import { EncryptionCodec } from '../temporal/encryption.js';
import { fail, pass, type CheckResult } from './check.js';

/** The receiver's secret: set (the configuration already refuses the development one in production). */
export function webhookSecretCheck(config: Config): CheckResult {
  const name = 'webhook secret';
  const { secrets, authDisabled } = config.webhooks;
  if (authDisabled) return pass(name, 'authentication disabled (WEBHOOK_AUTH_DISABLED, development only)');
  if (secrets.length === 0)
    return fail(name, 'WEBHOOK_SECRET is unset', 'set WEBHOOK_SECRET to the secret you share with the bank');
  if (secrets.includes(developmentWebhookSecret))
    return pass(name, `the public development secret (${config.env} only)`);
  return pass(name, `${secrets.length} secret${secrets.length > 1 ? 's' : ''} (current and previous)`);
}

/**
 * Every configured key encrypts a payload the whole key list decrypts: payloads written under old keys stay
 * readable.
 */
export async function encryptionKeysCheck(config: Config): Promise<CheckResult> {
  const name = 'encryption keys';
  const keys = config.temporal.encryptionKeys;
  const all = new EncryptionCodec(keys, 'refuse');
  const probe = defaultPayloadConverter.toPayload('bankflow doctor');
  const unreadable: string[] = [];
  for (const key of keys) {
    const sealed = await new EncryptionCodec([key], 'refuse').encode([probe]);
    const [opened] = await all.decode(sealed).catch(() => []);
    if (!opened || defaultPayloadConverter.fromPayload(opened) !== 'bankflow doctor') unreadable.push(key.id);
  }
  if (unreadable.length > 0) {
    return fail(
      name,
      `payloads under ${unreadable.join(', ')} do not decrypt`,
      'give each key id in TEMPORAL_ENCRYPTION_KEYS once, as id:base64 of 32 bytes',
    );
  }
  const ids = keys.map((key) => key.id).join(', ');
  return pass(name, `${ids}: each encrypts and decrypts (current first: ${keys[0]?.id ?? ''})`);
}

/**
 * The codec server's credentials (production requires them at configuration time); outside production each
 * start also generates a token of its own.
 */
export function codecAuthCheck(config: Config): CheckResult {
  const name = 'codec server auth';
  const { users, tokens, encodeUsers, encodeTokens } = config.codec;
  if (users.length + tokens.length + encodeUsers.length + encodeTokens.length > 0)
    return pass(
      name,
      `${users.length} user(s) and ${tokens.length} token(s) decode only, ${encodeUsers.length} user(s) and ` +
        `${encodeTokens.length} token(s) may also encode; the Origin header is never trusted`,
    );
  return pass(name, `a token generated per start (${config.env})`);
}

/**
 * The merchant API's keys: `bankflow api` refuses to start without one, and production refuses the
 * development key at configuration time. Names the keys, never a hash.
 */
export function apiKeysCheck(config: Config): CheckResult {
  const name = 'api keys';
  const { keys } = config.api;
  if (keys.length === 0)
    return fail(
      name,
      'API_KEYS is unset: bankflow api refuses to start',
      'mint a key with bankflow api-key create <name> and set API_KEYS to the entry it prints',
    );
  if (keys.length === 1 && keys[0]?.sha256 === developmentApiKeyEntry.sha256)
    return pass(name, 'the public development key (development only)');
  return pass(name, `${keys.length} key(s): ${keys.map((key) => key.name).join(', ')}`);
}

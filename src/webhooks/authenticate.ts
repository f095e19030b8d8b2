import { webhookHeaders } from '../bank/schemas/webhook.js';
import { verifySharedSecret, verifyWebhookSignature } from '../bank/webhook-signature.js';

export interface WebhookAuthSettings {
  /** Current secret first; during a rotation the previous one is accepted too. */
  secrets: string[];
  /** Local development only: accept everything. */
  disabled: boolean;
}

export type AuthOutcome = { ok: true } | { ok: false; reason: string };

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The bank proves itself with an HMAC-SHA256 of the raw body (`x-webhook-signature`) or, when it sends no
 * signature, the shared secret header (`x-webhook-secret`). A signature that is present must be valid, even
 * when the secret header is also right, so a leaked secret cannot be used to forge a body the bank signs.
 */
export function authenticateWebhook(
  settings: WebhookAuthSettings,
  headers: Headers,
  rawBody: Buffer,
): AuthOutcome {
  if (settings.disabled) return { ok: true };
  if (settings.secrets.length === 0)
    return { ok: false, reason: 'no webhook secret is configured (WEBHOOK_SECRET)' };
  const signature = header(headers, webhookHeaders.signature);
  if (signature !== undefined) {
    return verifyWebhookSignature(rawBody, signature, settings.secrets)
      ? { ok: true }
      : { ok: false, reason: `${webhookHeaders.signature} does not match the body` };
  }
  const secret = header(headers, webhookHeaders.secret);
  if (secret !== undefined) {
    return verifySharedSecret(secret, settings.secrets)
      ? { ok: true }
      : { ok: false, reason: `${webhookHeaders.secret} is wrong` };
  }
  return { ok: false, reason: `missing ${webhookHeaders.signature} (or ${webhookHeaders.secret})` };
}

import { webhookHeaders } from '../bank/schemas/webhook.js';
import { verifySharedSecret, verifyWebhookSignature } from '../bank/webhook-signature.js';

export interface WebhookAuthSettings {
  /** Current secret first; during a rotation the previous one is accepted too. */
  secrets: string[];
  /** Local development only: accept everything. */
  disabled: boolean;
  /**
   * Accept a request that carries only the shared secret header and no signature
   * (WEBHOOK_ACCEPT_SECRET_HEADER). The secret then works as a bearer token: whoever reads one request can
   * post any body with it.
   */
  acceptSecretHeader: boolean;
}

export type AuthOutcome = { ok: true } | { ok: false; reason: string };

export const secretHeaderAloneRefused =
  `missing ${webhookHeaders.signature}: the ${webhookHeaders.secret} header alone is not accepted ` +
  '(the bank must sign the body; WEBHOOK_ACCEPT_SECRET_HEADER=true accepts it, see docs/security.md)';

type Headers = Record<string, string | string[] | undefined>;

const header = (headers: Headers, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/**
 * The bank proves itself with an HMAC-SHA256 of the raw body (`x-webhook-signature`). The shared secret
 * header (`x-webhook-secret`) alone is accepted only when `acceptSecretHeader` says so. A signature that is
 * present must be valid, even when the secret header is also right, so a leaked secret cannot be used to
 * forge a body.
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
  if (secret !== undefined && !settings.acceptSecretHeader) {
    return { ok: false, reason: secretHeaderAloneRefused };
  }
  if (secret !== undefined) {
    return verifySharedSecret(secret, settings.secrets)
      ? { ok: true }
      : { ok: false, reason: `${webhookHeaders.secret} is wrong` };
  }
  return { ok: false, reason: `missing ${webhookHeaders.signature} (or ${webhookHeaders.secret})` };
}

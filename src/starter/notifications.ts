import type { NotificationEvent } from '../contract/notifications.js';
import { checkSignature } from '../notifications/signature.js';

/** A notification whose signature does not hold: answer it 400 and do not act on it. */
export class NotificationSignatureError extends Error {
  constructor(readonly reason: string) {
    super(`the notification is not signed by bankflow: ${reason}`);
    this.name = 'NotificationSignatureError';
  }
}

/**
 * Verifies a notification bankflow POSTed to the merchant's endpoint and answers its event. `body` is the raw
 * request body exactly as it arrived (parse it only after), `header` the `Bankflow-Signature` header,
 * `secrets` NOTIFY_SECRET (and the previous one while rotating), `toleranceSec` how far from now its
 * timestamp may be. Throws NotificationSignatureError when no signature matches or the timestamp is stale.
 */
export function verifyNotification(
  body: string | Buffer,
  header: string | undefined,
  secrets: string[],
  toleranceSec = 300,
): NotificationEvent {
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const checked = checkSignature(text, header, secrets, toleranceSec, Math.floor(Date.now() / 1000));
  if (!checked.ok) throw new NotificationSignatureError(checked.reason);
  return JSON.parse(text) as NotificationEvent;
}

import { notificationHeaders, type NotificationEvent } from '../../src/contract/notifications.js';
import { verifyNotification } from '../../src/starter/index.js';
import type { ReceivedWebhook } from './webhook-receiver.js';

/** The NOTIFY_SECRET the tests' workers sign the merchant's notifications with. */
export const merchantSecret = 'merchant-notification-secret-of-32+chars';

/**
 * The event a request to the merchant's endpoint carries, as a merchant reads it: its signature checked
 * first.
 */
export const verifiedEvent = (request: ReceivedWebhook): NotificationEvent =>
  verifyNotification(
    request.raw,
    String(request.headers[notificationHeaders.signature]),
    [merchantSecret],
    300,
  );

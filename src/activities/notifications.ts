import { ApplicationFailure, Context, log } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { NotificationsConfig } from '../config/notifications.js';
import {
  notificationHeaders,
  notificationSignal,
  notificationTimings,
  type NotificationEvent,
} from '../contract/notifications.js';
import { endedOutboxHolds, signalOutbox } from '../notifications/outbox-signal.js';
import { signatureHeader } from '../notifications/signature.js';

/** What of an endpoint's answer the log keeps. */
const keptAnswerChars = 200;

export type DeliveryAnswer = { status: number; attempt: number };

/** The endpoint's answer as the delivery log shows it: the status, and the start of the body on a failure. */
async function answerOf(response: Response): Promise<string> {
  if (response.ok) return `HTTP ${response.status}`;
  const body = (await response.text().catch(() => '')).replace(/[^\x20-\x7e]+/g, ' ').trim();
  return `HTTP ${response.status}${body ? `: ${body.slice(0, keptAnswerChars)}` : ''}`;
}

/**
 * The merchant's notifications (docs/merchant-notifications.md): a journey hands each event to the outbox of its
 * resource, and the outbox POSTs it, signed, to each endpoint. Both run on the internal queue.
 */
export function createNotificationActivities(
  temporal: Client,
  taskQueue: string,
  config: NotificationsConfig,
) {
  return {
    /**
     * Hands `event` to its resource's outbox, starting it if none runs, unless an ended outbox holds it already.
     * Without endpoints nothing is sent, so nothing is started: the journey's history is the same either way.
     */
    async handOffNotification(event: NotificationEvent): Promise<void> {
      if (config.endpoints.length === 0) return;
      if (await endedOutboxHolds(temporal, event)) return;
      await signalOutbox(
        temporal,
        taskQueue,
        event.resource,
        config.endpoints,
        notificationSignal,
        event,
        config.speedup,
      );
    },

    /**
     * POSTs `event` to `endpoint`, signed now with the worker's secrets. A 2xx answer delivers it; anything else
     * (an error status, no answer in time, no connection) fails the attempt, and Temporal retries it.
     */
    async deliverNotification(endpoint: string, event: NotificationEvent): Promise<DeliveryAnswer> {
      const { attempt } = Context.current().info;
      const body = JSON.stringify(event);
      const timestamp = Math.floor(Date.now() / 1000);
      const started = Date.now();
      const where = { endpoint, eventId: event.id, attempt };
      let response: Response;
      try {
        response = await fetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            [notificationHeaders.signature]: signatureHeader(body, config.secrets, timestamp),
            [notificationHeaders.eventId]: event.id,
            [notificationHeaders.eventType]: event.type,
          },
          body,
          signal: AbortSignal.any([
            AbortSignal.timeout(notificationTimings.requestTimeoutMs / (config.speedup ?? 1)),
            Context.current().cancellationSignal,
          ]),
          redirect: 'manual',
        });
      } catch (error) {
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        log.warn('notification not delivered', { ...where, reason, ms: Date.now() - started });
        throw ApplicationFailure.create({
          message: `no answer: ${reason}`,
          type: 'NotificationUndelivered',
          details: [attempt],
        });
      }
      const answer = await answerOf(response);
      log.info('notification answered', { ...where, answer, ms: Date.now() - started });
      if (!response.ok)
        throw ApplicationFailure.create({ message: answer, type: 'NotificationRefused', details: [attempt] });
      return { status: response.status, attempt };
    },
  };
}

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
import { answerPrefix, answerText, isFinalAnswer, retryDelayMs } from '../notifications/answers.js';
import { signatureHeader } from '../notifications/signature.js';
import { retryAfterMs } from '../bank/http.js';

export type DeliveryAnswer = { status: number; attempt: number };

/**
 * The merchant's notifications (docs/merchant-notifications.md): a journey hands each event to the outbox of
 * its resource, and the outbox POSTs it, signed, to each endpoint. Both run on the internal queue.
 */
export function createNotificationActivities(
  temporal: Client,
  taskQueue: string,
  config: NotificationsConfig,
) {
  return {
    /**
     * Hands `event` to its resource's outbox, starting it if none runs, unless an ended outbox holds it
     * already. Without endpoints nothing is sent, so nothing is started: the journey's history is the same
     * either way.
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
     * POSTs `event` to `endpoint`, signed now with the worker's secrets. A 2xx answer delivers it. A 4xx
     * other than 408 and 429 is final for the event: it fails without a retry. Any other answer (another
     * status, a redirect, no answer in time, no connection) fails the attempt, and Temporal retries it, after
     * a Retry-After when the answer has one. Only the start of an answer's body is read.
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
      const { status } = response;
      if (response.ok) {
        // The body of a 2xx says nothing the log keeps: it is not read.
        await response.body?.cancel().catch(() => undefined);
        log.info('notification answered', { ...where, answer: `HTTP ${status}`, ms: Date.now() - started });
        return { status, attempt };
      }
      const answer = answerText(status, await answerPrefix(response).catch(() => Buffer.alloc(0)));
      log.info('notification answered', { ...where, answer, ms: Date.now() - started });
      if (isFinalAnswer(status))
        throw ApplicationFailure.create({
          message: answer,
          type: 'NotificationRejected',
          nonRetryable: true,
          details: [attempt, status],
        });
      const retryAfter = retryAfterMs(response.headers.get('retry-after') ?? undefined);
      const delay = retryDelayMs(attempt, retryAfter, config.speedup);
      throw ApplicationFailure.create({
        message: answer,
        type: 'NotificationRefused',
        details: [attempt, status],
        ...(delay === undefined ? {} : { nextRetryDelay: delay }),
      });
    },
  };
}

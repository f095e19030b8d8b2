import { defineSignal } from '@temporalio/workflow';
import type { NotifiedResource } from './notified-resources.js';

/**
 * What bankflow tells the merchant (docs/merchant-notifications.md): one event per state a journey adopted
 * from the bank's own record, numbered per resource. The journey decides an event's id and content once, in
 * workflow code, so every delivery and every resend of one id carries the same bytes.
 */
export const notificationTypes = [
  'payment.created',
  'payment.awaiting_authorization',
  'payment.authorized',
  'payment.settled',
  'payment.failed',
  'payment.expired',
  'enrollment.authorized',
  'enrollment.revoked',
  'recurrence.created',
  'recurrence.attempt_created',
  'recurrence.attempt_settled',
  'recurrence.attempt_failed',
  'recurrence.attempt_cancelled',
  'recurrence.attempt_updated',
  'boleto.cancelled',
] as const;
export type NotificationType = (typeof notificationTypes)[number];

/**
 * The attempt statuses the spec and bankflow know (docs/decisions.md); any other is told as
 * `attempt_updated`.
 */
const attemptNotifications: Record<string, NotificationType> = {
  created: 'recurrence.attempt_created',
  settled: 'recurrence.attempt_settled',
  failed: 'recurrence.attempt_failed',
  cancelled: 'recurrence.attempt_cancelled',
};

/** The event a recurrence's attempt now in `status` owes the merchant. */
export const attemptNotification = (status: string): NotificationType =>
  attemptNotifications[status] ?? 'recurrence.attempt_updated';

export { notifiedResources, type NotifiedResource } from './notified-resources.js';

export interface NotificationEvent {
  /** `<resource>:<resource id>:<sequence>`: the same on every delivery and resend of this event. */
  id: string;
  type: NotificationType;
  resource: { type: NotifiedResource; id: string };
  /** 1, 2, 3… per resource, in the order the journey adopted the states. */
  sequence: number;
  /** Workflow time when the journey adopted the state. */
  occurred_at: string;
  /** The resource's public fields as the bank's record showed them. */
  data: Record<string, unknown>;
}

/** The outbox workflow's type name and the id of the one that serves a resource's events. */
export const notificationsWorkflowType = 'merchantNotificationsWorkflow';
export const notificationsWorkflowId = (resource: NotificationEvent['resource']) =>
  `notifications:${resource.type}:${resource.id}`;

export interface NotificationsInput {
  /** The endpoints' URLs; the worker signs with its configured secrets, which never enter a workflow. */
  endpoints: string[];
  /**
   * The worker's NOTIFY_TEST_SPEEDUP (bankflow's own real-time tests): divides the retry intervals; unset,
   * the merchant's timings.
   */
  speedup?: number;
  /** Set by continue-as-new: what the outbox carries, bounded whatever the number of events it took. */
  resume?: OutboxState;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event's delivery to one endpoint, as support reads it. */
export interface DeliveryEntry {
  eventId: string;
  sequence: number;
  type: NotificationType;
  endpoint: string;
  status: DeliveryStatus;
  /** The attempts the delivery took (a resend is a delivery of its own, from attempt 1). */
  attempts: number;
  /** The status of the endpoint's last answer, when one came. */
  httpStatus?: number;
  /** The endpoint's last answer (`HTTP 200`, `HTTP 404: <start of the body>`) or why none came. */
  answer?: string;
  /** Workflow time when the delivery ended. */
  at?: string;
}

/** An endpoint's deliveries by outcome; a resend counts as one more delivery. */
export interface EndpointCounts {
  endpoint: string;
  delivered: number;
  /** Given up: a final answer (a 4xx other than 408 and 429), or no 2xx within the delivery window. */
  failed: number;
  pending: number;
}

/** `[first, last]`: the sequences from first to last, both included. */
export type SequenceRange = [number, number];

/** Whether `sequence` is in one of `ranges`. */
export const heldIn = (ranges: SequenceRange[], sequence: number): boolean =>
  ranges.some(([first, last]) => first <= sequence && sequence <= last);

/**
 * An outbox's delivery log under `notificationsMemoKey` of its memo, the same size whatever the number of
 * events: counts, the deliveries pending and the last `notificationLogBounds.recentDeliveries` that ended,
 * and the sequences taken. A run that continued as new carries it into the next, so the last run of a chain
 * holds all of it.
 */
export interface NotificationLog {
  endpoints: EndpointCounts[];
  /**
   * In sequence order, then the endpoints' order; one entry per event and endpoint, the latest delivery's.
   */
  deliveries: DeliveryEntry[];
  /** The events taken, by sequence; an id taken again is ignored. */
  held: SequenceRange[];
}

/** An event still owed to some of the endpoints. */
export interface OwedEvent {
  event: NotificationEvent;
  endpoints: string[];
}

/**
 * What an outbox carries through continue-as-new: the log's parts and the events still owed, nothing else.
 */
export interface OutboxState {
  ended: Omit<EndpointCounts, 'pending'>[];
  /** The deliveries that ended last, oldest first. */
  recent: DeliveryEntry[];
  held: SequenceRange[];
  /** In sequence order; none is in flight when the outbox continues as new. */
  owed: OwedEvent[];
}

/** How much an outbox's log keeps (docs/merchant-notifications.md). */
export const notificationLogBounds = {
  /** The deliveries that ended last, listed with their answers. */
  recentDeliveries: 20,
  /**
   * The ranges of sequences taken: a journey hands its events over in order, so one range is the rule. Past
   * this many the lowest is forgotten, and an event of it handed over again would be delivered again, as a
   * merchant ignores an id it processed.
   */
  heldRanges: 20,
} as const;

export const notificationsMemoKey = 'bankflowNotifications';

/** An event a journey hands over; an id the outbox already holds is ignored. */
export const notificationSignal = defineSignal<[NotificationEvent]>('notification');

/** Delivers a held event again, to one endpoint or to every one: support's resend. */
export const resendNotificationSignal =
  defineSignal<[{ event: NotificationEvent; endpoint?: string }]>('resendNotification');

/** The signature header: `t=<unix seconds>,v1=<hex>` with one v1 per signing secret. */
export const notificationHeaders = {
  signature: 'bankflow-signature',
  eventId: 'bankflow-event-id',
  eventType: 'bankflow-event-type',
} as const;

/**
 * How an outbox delivers (docs/decisions.md, "Merchant notifications"): each POST retried from 30 s,
 * doubling, at most an hour apart, for three days, unless the endpoint's answer is final (a 4xx other than
 * 408 and 429); an outbox with nothing left to deliver for `idleMs` ends.
 */
export const notificationTimings = {
  retry: { initialIntervalMs: 30_000, backoffCoefficient: 2, maximumIntervalMs: 60 * 60_000 },
  /**
   * How long one POST may take before the attempt counts as failed (the activity's own timeout is longer).
   */
  requestTimeoutMs: 20_000,
  deliveryWindow: '3 days',
  attemptTimeoutMs: 30_000,
  idleMs: 10 * 60_000,
  /**
   * Past this many history events an outbox continues as new, with its log and the events it still owes, once
   * its deliveries in flight end: it owes at most the events it took while its history grew to this bound and
   * while those deliveries ended.
   */
  historyBound: 2_000,
} as const;

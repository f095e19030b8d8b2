import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BiometricPaymentStatus } from '../../src/bank/schemas/biometric-payment.js';
import type { EnrollmentStatus } from '../../src/bank/schemas/enrollment.js';
import {
  attemptNotification,
  type NotificationEvent,
  type NotificationType,
} from '../../src/contract/notifications.js';
import { isFinalAttemptStatus, reachedAttemptStatus } from '../../src/workflows/recurrence/attempt-table.js';
import type { BankRecords } from './audit-bank.js';
import type { JourneyRecord } from './journey.js';
import type { ChaosMerchantEndpoint, ReceivedNotification } from './merchant-endpoint.js';
import type { Violations } from './violations.js';

export const notifiedCheck = 'every final outcome the bank shows is notified to the merchant';
export const orderCheck = 'each resource’s events first reach the merchant in sequence order';
export const identicalCheck = 'an event id always carries the same body, byte for byte';
export const signatureCheck = 'every notification’s signature verifies';
export const confirmedCheck = 'no notification of a state the bank’s record never had';

/** A final event the merchant is owed: one a journey ended on and the bank's record shows. */
interface ExpectedEvent {
  resourceId: string;
  type: NotificationType;
  /** For a recurrence's attempt event: which attempt. */
  attemptId?: string;
}

/** What tells owed events apart: a recurrence owes one per attempt. */
const owedKey = (owed: ExpectedEvent) => `${owed.resourceId} ${owed.type} ${owed.attemptId ?? ''}`;

/** The attempt an event is about, for a recurrence's attempt events. */
const attemptOf = (event: NotificationEvent | undefined) =>
  (event?.data.attempt as { id?: string; status?: string } | undefined) ?? undefined;

/**
 * The final events owed, from the journeys whose outcome the bank's record confirms, and from the run's
 * recurrences: each generated, and each attempt in a final status at the bank.
 */
export function expectedFinalEvents(journeys: JourneyRecord[], bank: BankRecords): ExpectedEvent[] {
  const payments = new Map(bank.payments.map((payment) => [payment.id, payment.status]));
  const enrollments = new Map(bank.enrollments.map((enrollment) => [enrollment.id, enrollment.status]));
  const expected: ExpectedEvent[] = [];
  for (const journey of journeys) {
    const enrollmentStatus = journey.enrollmentId ? enrollments.get(journey.enrollmentId) : undefined;
    if (
      journey.enrollmentId &&
      journey.enrollmentOutcome === 'authorized' &&
      enrollmentStatus === 'authorized'
    )
      expected.push({ resourceId: journey.enrollmentId, type: 'enrollment.authorized' });
    if (journey.enrollmentId && journey.enrollmentOutcome === 'revoked' && enrollmentStatus === 'revoked')
      expected.push({ resourceId: journey.enrollmentId, type: 'enrollment.revoked' });
    const paymentStatus = journey.paymentId ? payments.get(journey.paymentId) : undefined;
    if (!journey.paymentId || !paymentStatus || journey.paymentOutcome !== paymentStatus) continue;
    if (paymentStatus === 'settled')
      expected.push({ resourceId: journey.paymentId, type: 'payment.settled' });
    if (paymentStatus === 'failed' || paymentStatus === 'rejected')
      expected.push({ resourceId: journey.paymentId, type: 'payment.failed' });
  }
  const recurrences = new Map(bank.recurrences.map((recurrence) => [recurrence.external_id, recurrence.id]));
  for (const id of recurrences.values()) expected.push({ resourceId: id, type: 'recurrence.created' });
  for (const attempt of bank.attempts) {
    const recurrenceId = recurrences.get(attempt.external_id);
    if (recurrenceId && isFinalAttemptStatus(attempt.status))
      expected.push({
        resourceId: recurrenceId,
        type: attemptNotification(attempt.status),
        attemptId: attempt.id,
      });
  }
  return expected;
}

/** A request the merchant answered 2xx: the event is stored on its side. */
const accepted = (request: ReceivedNotification) => request.answer === 'ok' || request.answer === 'slow';

const parsed = (request: ReceivedNotification): NotificationEvent | undefined => {
  try {
    return JSON.parse(request.body) as NotificationEvent;
  } catch {
    return undefined;
  }
};

function missing(endpoint: ChaosMerchantEndpoint, expected: ExpectedEvent[]): ExpectedEvent[] {
  const got = new Set(
    endpoint.received.filter(accepted).map((request) => {
      const event = parsed(request);
      return owedKey({
        resourceId: event?.resource.id ?? '',
        type: event?.type as NotificationType,
        attemptId: attemptOf(event)?.id,
      });
    }),
  );
  return expected.filter((owed) => !got.has(owedKey(owed)));
}

/**
 * Waits, at most `timeoutMs`, until the merchant accepted every final event owed: the endpoint recovers (up,
 * no more faults) and the outboxes' retries come back to it.
 */
export async function drainNotifications(
  endpoint: ChaosMerchantEndpoint,
  expected: ExpectedEvent[],
  timeoutMs: number,
): Promise<void> {
  await endpoint.recover();
  const deadline = Date.now() + timeoutMs;
  while (missing(endpoint, expected).length > 0 && Date.now() < deadline) await sleep(1_000);
}

/** How far each state goes: a record the bank showed later is at least as far, and a final one stays. */
const paymentRank: Record<BiometricPaymentStatus, number> = {
  pending: 0,
  created: 0,
  awaiting_consent: 0,
  awaiting_payment: 1,
  settled: 2,
  failed: 2,
  rejected: 2,
};
const paymentStatusesOf: Partial<Record<NotificationType, BiometricPaymentStatus[]>> = {
  'payment.awaiting_authorization': ['created', 'awaiting_consent'],
  'payment.authorized': ['awaiting_payment'],
  'payment.settled': ['settled'],
  'payment.failed': ['failed', 'rejected'],
};
const enrollmentLaterStatuses: Partial<Record<NotificationType, EnrollmentStatus[]>> = {
  'enrollment.authorized': ['authorized', 'revoked', 'inactive'],
  'enrollment.revoked': ['revoked'],
};

/** Why a recurrence's `event` names what the bank's records never had, if it does. */
function unconfirmedRecurrence(event: NotificationEvent, bank: BankRecords): string | undefined {
  const recurrence = bank.recurrences.find((candidate) => candidate.id === event.resource.id);
  if (!recurrence) return 'the bank holds no such recurrence';
  if (event.type === 'recurrence.created')
    return event.data.status === recurrence.status
      ? undefined
      : `data.status ${String(event.data.status)}; the bank shows ${recurrence.status}`;
  const told = attemptOf(event);
  const attempt = bank.attempts.find((candidate) => candidate.id === told?.id);
  if (!told?.status || !attempt || attempt.external_id !== recurrence.external_id)
    return `attempt ${told?.id} is not one of the recurrence's at the bank`;
  if (
    event.type !== attemptNotification(told.status) ||
    !reachedAttemptStatus(attempt.status, told.status) ||
    (isFinalAttemptStatus(told.status) && attempt.status !== told.status)
  )
    return `${event.type} (attempt status ${told.status}); the bank shows ${attempt.status}`;
  return undefined;
}

/** Why `event` names a state the bank's final record never went through, if it does. */
function unconfirmed(event: NotificationEvent, bank: BankRecords): string | undefined {
  if (event.resource.type === 'recurrence') return unconfirmedRecurrence(event, bank);
  const shown = String(event.data.status);
  if (event.resource.type === 'enrollment') {
    const enrollment = bank.enrollments.find((candidate) => candidate.id === event.resource.id);
    const allowed = enrollmentLaterStatuses[event.type];
    if (!enrollment) return 'the bank holds no such enrollment';
    if (allowed && (!allowed.includes(enrollment.status) || shown !== event.type.split('.')[1]))
      return `${event.type} (data.status ${shown}); the bank shows ${enrollment.status}`;
    return undefined;
  }
  const payment = bank.payments.find((candidate) => candidate.id === event.resource.id);
  if (!payment) return 'the bank holds no such payment';
  const statuses = paymentStatusesOf[event.type];
  const status = shown as BiometricPaymentStatus;
  if (statuses && !statuses.includes(status)) return `${event.type} carries data.status ${shown}`;
  const final = paymentRank[status] === 2;
  if (
    paymentRank[status] === undefined ||
    (final ? payment.status !== status : paymentRank[payment.status] < paymentRank[status])
  )
    return `${event.type} (data.status ${shown}); the bank shows ${payment.status}`;
  return undefined;
}

/**
 * The merchant's side of the notifications (docs/reliability.md): every final outcome owed was accepted at
 * least once; per resource, an event first arrives only after every earlier sequence did; one id, one body;
 * every signature verifies; and no event names a state the bank's record never had.
 */
export function auditNotifications(
  endpoint: ChaosMerchantEndpoint,
  expected: ExpectedEvent[],
  bank: BankRecords,
  violations: Violations,
): void {
  for (const owed of missing(endpoint, expected))
    violations.add(
      notifiedCheck,
      `${owed.type.split('.')[0]} ${owed.resourceId}`,
      `${owed.type} never accepted${owed.attemptId ? ` (attempt ${owed.attemptId})` : ''}`,
    );

  const bodies = new Map<string, string>();
  const arrived = new Map<string, Set<number>>();
  for (const request of [...endpoint.received].sort((a, b) => a.at - b.at)) {
    const subject = `event ${request.eventId}`;
    if (request.signatureProblem) violations.add(signatureCheck, subject, request.signatureProblem);
    const event = parsed(request);
    if (!event || event.id !== request.eventId || event.type !== request.eventType) {
      violations.add(identicalCheck, subject, 'the body is not the event its headers name');
      continue;
    }
    const first = bodies.get(event.id);
    if (first === undefined) bodies.set(event.id, request.body);
    else if (first !== request.body)
      violations.add(identicalCheck, subject, 'a later delivery carried another body');
    const sequences = arrived.get(event.resource.id) ?? new Set<number>();
    arrived.set(event.resource.id, sequences);
    if (first === undefined) {
      const before = Array.from({ length: event.sequence - 1 }, (_, index) => index + 1);
      const gaps = before.filter((sequence) => !sequences.has(sequence));
      if (gaps.length > 0)
        violations.add(orderCheck, subject, `first arrived before sequence ${gaps.join(', ')}`);
      sequences.add(event.sequence);
      const problem = unconfirmed(event, bank);
      if (problem) violations.add(confirmedCheck, subject, problem);
    }
  }
}

/**
 * Delivery attempts the workers logged as unanswered (no connection) while the endpoint was down, from their
 * log files in `dir`.
 */
export function refusalsWhileDown(dir: string, window: { from: number; to: number } | undefined): number {
  if (!window) return 0;
  let refused = 0;
  for (const file of readdirSync(dir).filter((name) => /^worker-\d+\.log$/.test(name))) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('notification not delivered')) continue;
      const entry = JSON.parse(line) as { time?: number | string; reason?: string };
      const at = new Date(entry.time ?? 0).getTime();
      if (at >= window.from && at <= window.to && !/Timeout|Abort/.test(entry.reason ?? '')) refused++;
    }
  }
  return refused;
}

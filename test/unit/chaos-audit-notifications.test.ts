import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { Recurrence } from '../../src/bank/schemas/recurrence.js';
import type { NotificationEvent } from '../../src/contract/notifications.js';
import type { BankRecords } from '../../bench/chaos/audit-bank.js';
import {
  auditNotifications,
  confirmedCheck,
  expectedFinalEvents,
  notifiedCheck,
} from '../../bench/chaos/audit-notifications.js';
import type { ChaosMerchantEndpoint, ReceivedNotification } from '../../bench/chaos/merchant-endpoint.js';
import { Violations } from '../../bench/chaos/violations.js';

const recurrence = { id: 'rec-1', external_id: 'contract-1', status: 'approved' } as Recurrence;
const attempt = (id: string, status: string) =>
  ({ id, status, external_id: recurrence.external_id }) as CollectionAttempt;
const bank = (attempts: CollectionAttempt[]): BankRecords => ({
  payments: [],
  enrollments: [],
  authorizeCalls: [],
  attempts,
  recurrences: [recurrence],
});

let sequence = 0;
/** What the merchant received and answered 200 to: one request per event. */
function endpointReceiving(events: Omit<NotificationEvent, 'id' | 'sequence' | 'occurred_at'>[]) {
  const received: ReceivedNotification[] = events.map((event, index) => {
    const full = {
      ...event,
      id: `recurrence:${recurrence.id}:${index + 1}`,
      sequence: index + 1,
      occurred_at: '',
    };
    return {
      at: ++sequence,
      eventId: full.id,
      eventType: full.type,
      signature: 't=1,v1=0',
      body: JSON.stringify(full),
      answer: 'ok',
    };
  });
  return { received } as unknown as ChaosMerchantEndpoint;
}

const created = {
  type: 'recurrence.created' as const,
  resource: { type: 'recurrence' as const, id: recurrence.id },
  data: { id: recurrence.id, status: 'approved' },
};
const attemptEvent = (id: string, status: string) => ({
  type: `recurrence.attempt_${status}` as NotificationEvent['type'],
  resource: { type: 'recurrence' as const, id: recurrence.id },
  data: { recurrence: { id: recurrence.id }, attempt: { id, status } },
});

describe('the chaos audit of recurrence notifications', () => {
  it('owes the recurrence, and each attempt final at the bank, one event per attempt', () => {
    const owed = expectedFinalEvents(
      [],
      bank([attempt('a1', 'settled'), attempt('a2', 'created'), attempt('a3', 'failed')]),
    );
    expect(owed).toEqual([
      { resourceId: recurrence.id, type: 'recurrence.created' },
      { resourceId: recurrence.id, type: 'recurrence.attempt_settled', attemptId: 'a1' },
      { resourceId: recurrence.id, type: 'recurrence.attempt_failed', attemptId: 'a3' },
    ]);
  });

  it("passes events the bank's records hold, and names one owed per attempt that never came", () => {
    const records = bank([attempt('a1', 'settled'), attempt('a2', 'settled')]);
    const violations = new Violations();
    auditNotifications(
      endpointReceiving([created, attemptEvent('a1', 'created'), attemptEvent('a1', 'settled')]),
      expectedFinalEvents([], records),
      records,
      violations,
    );
    expect(violations.list).toEqual([
      {
        check: notifiedCheck,
        subject: `recurrence ${recurrence.id}`,
        detail: 'recurrence.attempt_settled never accepted (attempt a2)',
      },
    ]);
  });

  it("flags an attempt status the bank's record never reached, and an attempt of another recurrence", () => {
    const records = bank([attempt('a1', 'created'), { ...attempt('a2', 'settled'), external_id: 'other' }]);
    const violations = new Violations();
    auditNotifications(
      endpointReceiving([created, attemptEvent('a1', 'settled'), attemptEvent('a2', 'settled')]),
      [],
      records,
      violations,
    );
    expect(violations.list.map(({ check, detail }) => [check, detail])).toEqual([
      [confirmedCheck, 'recurrence.attempt_settled (attempt status settled); the bank shows created'],
      [confirmedCheck, "attempt a2 is not one of the recurrence's at the bank"],
    ]);
  });
});

import type { NotificationEvent } from '../../src/contract/notifications.js';
import { Outbox } from '../../src/workflows/notifications/outbox.js';

const event = (sequence: number, data: Record<string, unknown> = {}): NotificationEvent => ({
  id: `payment:p-1:${sequence}`,
  type: 'payment.created',
  resource: { type: 'payment', id: 'p-1' },
  sequence,
  occurred_at: '2026-11-27T23:00:00.000Z',
  data,
});

const [shop, backup] = ['https://shop.example/n', 'https://backup.example/n'];

describe("an outbox's log of events and deliveries", () => {
  it('owes each endpoint its events in sequence order, whatever order they were handed over in', () => {
    const outbox = new Outbox([shop, backup], { events: [], deliveries: [] });
    outbox.add(event(2));
    outbox.add(event(1));
    const first = outbox.next(shop);
    expect(first?.eventId).toBe('payment:p-1:1');
    if (first) outbox.ended(first, 'delivered', { attempts: 1, answer: 'HTTP 200', at: 'now' });
    expect(outbox.next(shop)?.eventId).toBe('payment:p-1:2');
    expect(outbox.next(backup)?.eventId).toBe('payment:p-1:1');
    expect(outbox.idle()).toBe(false);
  });

  it('ignores an event id it holds, keeping the content it first took', () => {
    const outbox = new Outbox([shop], { events: [], deliveries: [] });
    expect(outbox.add(event(1, { status: 'created' }))).toBe(true);
    expect(outbox.add(event(1, { status: 'forged' }))).toBe(false);
    expect(outbox.log.events).toEqual([event(1, { status: 'created' })]);
    expect(outbox.log.deliveries).toHaveLength(1);
  });

  it('resends to one endpoint or all of them, and leaves out an endpoint it does not deliver to', () => {
    const outbox = new Outbox([shop, backup], { events: [], deliveries: [] });
    outbox.add(event(1));
    for (const endpoint of [shop, backup]) {
      const entry = outbox.next(endpoint);
      if (entry) outbox.ended(entry, 'failed', { attempts: 9, answer: 'HTTP 503', at: 'then' });
    }
    expect(outbox.idle()).toBe(true);
    outbox.resend(event(1), 'https://elsewhere.example/n');
    expect(outbox.idle()).toBe(true);
    outbox.resend(event(1), backup);
    expect(outbox.next(shop)).toBeUndefined();
    expect(outbox.next(backup)).toMatchObject({ status: 'pending', attempts: 0 });
    outbox.resend(event(1));
    expect(outbox.next(shop)).toMatchObject({ eventId: 'payment:p-1:1', status: 'pending' });
    expect(outbox.log.deliveries).toHaveLength(2);
  });

  it('takes a resent event it no longer holds (a new run after the last one ended)', () => {
    const outbox = new Outbox([shop], { events: [], deliveries: [] });
    outbox.resend(event(3));
    expect(outbox.log.events.map((held) => held.id)).toEqual(['payment:p-1:3']);
    expect(outbox.next(shop)?.eventId).toBe('payment:p-1:3');
  });
});

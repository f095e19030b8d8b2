import {
  notificationLogBounds,
  type DeliveryStatus,
  type NotificationEvent,
} from '../../src/contract/notifications.js';
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

/** Delivers the next event owed to `endpoint` as the workflow's loop does, ending it with `status`. */
function deliverNext(outbox: Outbox, endpoint: string, status: Exclude<DeliveryStatus, 'pending'>) {
  const next = outbox.next(endpoint);
  if (!next) throw new Error(`nothing owed to ${endpoint}`);
  outbox.start(endpoint, next);
  const httpStatus = status === 'delivered' ? 200 : 404;
  outbox.ended(endpoint, next, status, {
    attempts: 1,
    httpStatus,
    answer: `HTTP ${httpStatus}`,
    at: '2026-11-27T23:00:01.000Z',
  });
  return next;
}

/** The bytes the log and the carried state take in a memo and in a continue-as-new input. */
const sizeOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));

describe("an outbox's events, deliveries and log", () => {
  it('owes each endpoint its events in sequence order, whatever order they were handed over in', () => {
    const outbox = new Outbox([shop, backup]);
    outbox.add(event(2));
    outbox.add(event(1));
    expect(deliverNext(outbox, shop, 'delivered').id).toBe('payment:p-1:1');
    expect(outbox.next(shop)?.id).toBe('payment:p-1:2');
    expect(outbox.next(backup)?.id).toBe('payment:p-1:1');
    expect(outbox.idle()).toBe(false);
  });

  it('ignores an event id it holds, keeping the content it first took', () => {
    const outbox = new Outbox([shop]);
    expect(outbox.add(event(1, { status: 'created' }))).toBe(true);
    expect(outbox.add(event(1, { status: 'forged' }))).toBe(false);
    expect(outbox.next(shop)).toEqual(event(1, { status: 'created' }));
    deliverNext(outbox, shop, 'delivered');
    // Delivered and no longer kept, its sequence is still known: handed over again, it is not sent again.
    expect(outbox.add(event(1, { status: 'forged' }))).toBe(false);
    expect(outbox.idle()).toBe(true);
    expect(outbox.log().deliveries).toHaveLength(1);
  });

  it('lets the next event go once one failed for good, and lists the failure with its answer', () => {
    const outbox = new Outbox([shop]);
    for (const sequence of [1, 2, 3]) outbox.add(event(sequence));
    deliverNext(outbox, shop, 'delivered');
    deliverNext(outbox, shop, 'failed');
    expect(outbox.next(shop)?.id).toBe('payment:p-1:3');
    const log = outbox.log();
    expect(log.endpoints).toEqual([{ endpoint: shop, delivered: 1, failed: 1, pending: 1 }]);
    expect(log.deliveries.map((entry) => [entry.sequence, entry.status])).toEqual([
      [1, 'delivered'],
      [2, 'failed'],
      [3, 'pending'],
    ]);
    expect(log.deliveries[1]).toMatchObject({
      eventId: 'payment:p-1:2',
      type: 'payment.created',
      endpoint: shop,
      attempts: 1,
      httpStatus: 404,
      answer: 'HTTP 404',
    });
  });

  it('resends to one endpoint or all of them, and leaves out an endpoint it does not deliver to', () => {
    const outbox = new Outbox([shop, backup]);
    outbox.add(event(1));
    for (const endpoint of [shop, backup]) deliverNext(outbox, endpoint, 'failed');
    expect(outbox.idle()).toBe(true);
    expect(outbox.resend(event(1), 'https://elsewhere.example/n')).toBe(false);
    expect(outbox.idle()).toBe(true);
    outbox.resend(event(1), backup);
    expect(outbox.next(shop)).toBeUndefined();
    expect(outbox.next(backup)?.id).toBe('payment:p-1:1');
    outbox.resend(event(1));
    expect(outbox.next(shop)?.id).toBe('payment:p-1:1');
    expect(outbox.log().deliveries.map((entry) => [entry.endpoint, entry.status])).toEqual([
      [shop, 'pending'],
      [backup, 'pending'],
    ]);
    deliverNext(outbox, shop, 'delivered');
    expect(outbox.log().endpoints).toEqual([
      { endpoint: shop, delivered: 1, failed: 1, pending: 0 },
      { endpoint: backup, delivered: 0, failed: 1, pending: 1 },
    ]);
  });

  it('takes a resent event it no longer holds (a new run after the last one ended)', () => {
    const outbox = new Outbox([shop]);
    outbox.resend(event(3));
    expect(outbox.next(shop)?.id).toBe('payment:p-1:3');
    expect(outbox.log().held).toEqual([[3, 3]]);
  });

  it('delivers again an event resent while its delivery was in flight', () => {
    const outbox = new Outbox([shop]);
    outbox.add(event(1));
    const flying = outbox.next(shop)!;
    outbox.start(shop, flying);
    expect(outbox.next(shop)).toBeUndefined();
    expect(outbox.idle()).toBe(false);
    outbox.resend(event(1));
    outbox.ended(shop, flying, 'delivered', { attempts: 1, answer: 'HTTP 200', at: 'then' });
    expect(outbox.next(shop)?.id).toBe('payment:p-1:1');
  });

  it('keeps its log and what it carries under a fixed size, however many events it took', () => {
    const outbox = new Outbox([shop, backup]);
    const bulky = { description: 'x'.repeat(500) };
    for (let sequence = 1; sequence <= 5_000; sequence++) {
      outbox.add(event(sequence, bulky));
      deliverNext(outbox, shop, sequence % 7 === 0 ? 'failed' : 'delivered');
      deliverNext(outbox, backup, 'delivered');
    }
    outbox.add(event(5_001, bulky));
    const log = outbox.log();
    expect(log.endpoints).toEqual([
      { endpoint: shop, delivered: 4_286, failed: 714, pending: 1 },
      { endpoint: backup, delivered: 5_000, failed: 0, pending: 1 },
    ]);
    expect(log.held).toEqual([[1, 5_001]]);
    // The last ended deliveries and the two pending, nothing older.
    expect(log.deliveries).toHaveLength(notificationLogBounds.recentDeliveries + 2);
    expect(log.deliveries[0]?.sequence).toBe(5_001 - notificationLogBounds.recentDeliveries / 2);
    expect(sizeOf(log)).toBeLessThan(8_192);
    // Carried: the same, and the one event still owed with its body.
    expect(outbox.carried().owed.map((owed) => owed.event.id)).toEqual(['payment:p-1:5001']);
    expect(sizeOf(outbox.carried())).toBeLessThan(8_192);
  });

  it('remembers the sequences it took as ranges, forgetting the lowest past the bound', () => {
    const outbox = new Outbox([shop]);
    const gaps = notificationLogBounds.heldRanges + 5;
    for (let range = 0; range < gaps; range++) outbox.add(event(range * 10 + 1));
    const { held } = outbox.log();
    expect(held).toHaveLength(notificationLogBounds.heldRanges);
    expect(held[0]).toEqual([51, 51]);
    expect(outbox.add(event(1))).toBe(true);
    expect(outbox.add(event(gaps * 10 - 9))).toBe(false);
  });
});

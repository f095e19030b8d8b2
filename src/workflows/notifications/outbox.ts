// An outbox's log as data and pure transitions, free of Temporal: which event goes to which endpoint next.
import type {
  DeliveryEntry,
  DeliveryStatus,
  NotificationEvent,
  NotificationLog,
} from '../../contract/notifications.js';

export class Outbox {
  /** Set once the run winds down: each endpoint's delivery loop ends after the delivery in flight. */
  closing = false;

  constructor(
    readonly endpoints: string[],
    readonly log: NotificationLog,
  ) {}

  /** Takes an event a journey handed over; an id already held is the same event again and is ignored. */
  add(event: NotificationEvent): boolean {
    if (this.event(event.id)) return false;
    this.hold(event);
    for (const endpoint of this.endpoints) this.log.deliveries.push(pending(event.id, endpoint));
    return true;
  }

  /**
   * Delivers an event again (one support resends), to `endpoint` or to every endpoint; an endpoint this outbox
   * does not deliver to is left out.
   */
  resend(event: NotificationEvent, endpoint?: string): void {
    const targets = endpoint ? this.endpoints.filter((known) => known === endpoint) : this.endpoints;
    if (targets.length === 0) return;
    if (!this.event(event.id)) this.hold(event);
    for (const target of targets) {
      const entry = this.entry(event.id, target);
      if (entry) Object.assign(entry, pending(event.id, target));
      else this.log.deliveries.push(pending(event.id, target));
    }
  }

  event(id: string): NotificationEvent | undefined {
    return this.log.events.find((event) => event.id === id);
  }

  /** The next delivery owed to `endpoint`: its pending event of the lowest sequence. */
  next(endpoint: string): DeliveryEntry | undefined {
    const sequence = (entry: DeliveryEntry) => this.event(entry.eventId)?.sequence ?? 0;
    return this.log.deliveries
      .filter((entry) => entry.endpoint === endpoint && entry.status === 'pending')
      .sort((a, b) => sequence(a) - sequence(b))[0];
  }

  idle(): boolean {
    return this.log.deliveries.every((entry) => entry.status !== 'pending');
  }

  /** Records how a delivery ended. */
  ended(
    entry: DeliveryEntry,
    outcome: Exclude<DeliveryStatus, 'pending'>,
    answer: { attempts: number; answer: string; at: string },
  ): void {
    Object.assign(entry, { status: outcome, ...answer });
  }

  private entry(eventId: string, endpoint: string): DeliveryEntry | undefined {
    return this.log.deliveries.find((entry) => entry.eventId === eventId && entry.endpoint === endpoint);
  }

  /** Keeps the events in sequence order, which is the order each endpoint gets them in. */
  private hold(event: NotificationEvent): void {
    this.log.events.push(event);
    this.log.events.sort((a, b) => a.sequence - b.sequence);
  }
}

const pending = (eventId: string, endpoint: string): DeliveryEntry => ({
  eventId,
  endpoint,
  status: 'pending',
  attempts: 0,
});

// An outbox's state as data and pure transitions, free of Temporal: which event goes to which endpoint next,
// and the bounded log support reads.
import {
  heldIn,
  notificationLogBounds,
  type DeliveryEntry,
  type DeliveryStatus,
  type EndpointCounts,
  type NotificationEvent,
  type NotificationLog,
  type OutboxState,
  type SequenceRange,
} from '../../contract/notifications.js';

/** How a delivery ended, as the log keeps it. */
export type DeliveryOutcome = Pick<DeliveryEntry, 'attempts' | 'httpStatus' | 'answer' | 'at'>;

const emptyState = (): OutboxState => ({ ended: [], recent: [], held: [], owed: [] });

/**
 * `ranges` with `sequence` added, merged with its neighbours; past the bound the lowest range is forgotten.
 */
function withSequence(ranges: SequenceRange[], sequence: number): SequenceRange[] {
  const merged: SequenceRange[] = [];
  for (const [first, last] of [...ranges, [sequence, sequence] as SequenceRange].sort(
    (a, b) => a[0] - b[0],
  )) {
    const previous = merged.at(-1);
    if (previous && first <= previous[1] + 1) previous[1] = Math.max(previous[1], last);
    else merged.push([first, last]);
  }
  return merged.slice(-notificationLogBounds.heldRanges);
}

const entryOf = (event: NotificationEvent, endpoint: string): DeliveryEntry => ({
  eventId: event.id,
  sequence: event.sequence,
  type: event.type,
  endpoint,
  status: 'pending',
  attempts: 0,
});

export class Outbox {
  /** Set once the run winds down: each endpoint's delivery loop ends after the delivery in flight. */
  closing = false;
  private readonly state: OutboxState;
  /** The deliveries started and not ended; never carried, as the outbox continues as new only without one. */
  private readonly inFlight: { event: NotificationEvent; endpoint: string }[] = [];

  constructor(
    readonly endpoints: string[],
    resume?: OutboxState,
  ) {
    this.state = resume ?? emptyState();
  }

  /**
   * Takes an event a journey handed over; a sequence taken already is the same event again and is ignored.
   */
  add(event: NotificationEvent): boolean {
    if (heldIn(this.state.held, event.sequence)) return false;
    this.owe(event, this.endpoints);
    return true;
  }

  /**
   * Delivers an event again (one support resends), to `endpoint` or to every endpoint; an endpoint this
   * outbox does not deliver to is left out. Answers whether anything is owed for it.
   */
  resend(event: NotificationEvent, endpoint?: string): boolean {
    const targets = endpoint ? this.endpoints.filter((known) => known === endpoint) : this.endpoints;
    if (targets.length === 0) return false;
    this.owe(event, targets);
    return true;
  }

  /** The next event owed to `endpoint`: its owed event of the lowest sequence. */
  next(endpoint: string): NotificationEvent | undefined {
    return this.state.owed.find((owed) => owed.endpoints.includes(endpoint))?.event;
  }

  /** Moves `event`'s delivery to `endpoint` from owed to in flight; a resend meanwhile owes it again. */
  start(endpoint: string, event: NotificationEvent): void {
    const owed = this.state.owed.find((held) => held.event.id === event.id);
    if (!owed) return;
    owed.endpoints = owed.endpoints.filter((target) => target !== endpoint);
    if (owed.endpoints.length === 0) this.state.owed = this.state.owed.filter((held) => held !== owed);
    this.inFlight.push({ event, endpoint });
  }

  /** Records how a delivery started with `start` ended. */
  ended(
    endpoint: string,
    event: NotificationEvent,
    status: Exclude<DeliveryStatus, 'pending'>,
    outcome: DeliveryOutcome,
  ): void {
    const flying = this.inFlight.findIndex(
      (held) => held.event.id === event.id && held.endpoint === endpoint,
    );
    if (flying >= 0) this.inFlight.splice(flying, 1);
    let counts = this.state.ended.find((held) => held.endpoint === endpoint);
    if (!counts) {
      counts = { endpoint, delivered: 0, failed: 0 };
      this.state.ended.push(counts);
    }
    counts[status]++;
    this.state.recent.push({ ...entryOf(event, endpoint), status, ...outcome });
    this.state.recent.splice(0, this.state.recent.length - notificationLogBounds.recentDeliveries);
  }

  /** Nothing owed and nothing in flight. */
  idle(): boolean {
    return this.state.owed.length === 0 && this.inFlight.length === 0;
  }

  /** What the next run starts from; only read with nothing in flight. */
  carried(): OutboxState {
    return this.state;
  }

  /** The log for the memo: what support reads, of a size that does not grow with the events. */
  log(): NotificationLog {
    const pending = [
      ...this.inFlight.map(({ event, endpoint }) => entryOf(event, endpoint)),
      ...this.state.owed.flatMap(({ event, endpoints }) => endpoints.map((target) => entryOf(event, target))),
    ];
    const latest = new Map<string, DeliveryEntry>();
    for (const entry of [...this.state.recent, ...pending])
      latest.set(`${entry.eventId} ${entry.endpoint}`, entry);
    const known = [...new Set([...this.endpoints, ...this.state.ended.map((counts) => counts.endpoint)])];
    const order = (entry: DeliveryEntry) => known.indexOf(entry.endpoint);
    const endpoints: EndpointCounts[] = known.map((endpoint) => ({
      endpoint,
      delivered: 0,
      failed: 0,
      ...this.state.ended.find((counts) => counts.endpoint === endpoint),
      pending: pending.filter((entry) => entry.endpoint === endpoint).length,
    }));
    return {
      endpoints,
      deliveries: [...latest.values()].sort((a, b) => a.sequence - b.sequence || order(a) - order(b)),
      held: this.state.held,
    };
  }

  /**
   * Owes `event` to `targets`, held in sequence order, which is the order each endpoint gets the events in.
   */
  private owe(event: NotificationEvent, targets: string[]): void {
    this.state.held = withSequence(this.state.held, event.sequence);
    const owed = this.state.owed.find((held) => held.event.id === event.id);
    if (owed) {
      owed.endpoints = [...new Set([...owed.endpoints, ...targets])];
      return;
    }
    const after = this.state.owed.findIndex((held) => held.event.sequence > event.sequence);
    this.state.owed.splice(after < 0 ? this.state.owed.length : after, 0, { event, endpoints: [...targets] });
  }
}

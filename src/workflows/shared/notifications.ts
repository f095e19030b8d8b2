import { allHandlersFinished, condition } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { NotificationEvent, NotificationType } from '../../contract/notifications.js';
import { internalActivities, temporalCallOptions } from '../activity-options.js';

const outbox = internalActivities<Pick<Activities, 'handOffNotification'>>(temporalCallOptions);

/** Where a journey counts the events it emitted: one integer, carried by continue-as-new with the journey. */
export interface NotificationCounter {
  notified?: number;
}

/**
 * A journey's notifications: each state it adopts from the bank's record goes to its resource's outbox, which
 * POSTs it to the merchant (docs/merchant-notifications.md). Each event's id and content are decided here, in
 * workflow code, so a replay, a retried hand-over and a resend all carry the same event; they go to the
 * outbox one after another, in sequence order.
 */
export class JourneyNotifier {
  private handedOver: Promise<void> = Promise.resolve();
  /** Events emitted whose hand-off has not answered yet: while any has not, the run may not end. */
  private inFlight = 0;

  /** `counter` answers where the journey counts its events (read when one is emitted). */
  constructor(private readonly counter: () => NotificationCounter) {}

  /** Emits `type` for `resource`, as the bank's record (`data`, public fields) shows it now. */
  emit(resource: NotificationEvent['resource'], type: NotificationType, data: Record<string, unknown>): void {
    const counter = this.counter();
    const sequence = (counter.notified ?? 0) + 1;
    counter.notified = sequence;
    const event: NotificationEvent = {
      id: `${resource.type}:${resource.id}:${sequence}`,
      type,
      resource,
      sequence,
      occurred_at: new Date().toISOString(),
      data,
    };
    this.handedOver = this.handedOver.then(() => outbox.handOffNotification(event));
    // Counted on a branch of its own: a link in the chain would delay each next hand-off by a step, and so
    // move its command after others the same workflow task makes, which recorded histories would not replay.
    this.inFlight++;
    const answered = () => {
      this.inFlight--;
    };
    void this.handedOver.then(answered, answered);
  }

  /** Resolves once every event emitted is with its outbox, those a handler emits meanwhile included. */
  async handedOverAll(): Promise<void> {
    let awaited: Promise<void>;
    do {
      awaited = this.handedOver;
      await awaited;
    } while (awaited !== this.handedOver);
  }

  /**
   * Whether the run may end or continue as new now: every handler finished and every event is with its
   * outbox.
   */
  mayEnd(): boolean {
    return allHandlersFinished() && this.inFlight === 0;
  }

  /**
   * Resolves once the run may end or continue as new (`mayEnd`), both checked at once. The caller ends the
   * run in the workflow task this resolves in, awaiting nothing else before: a message accepted until then
   * makes the check wait for its handler and for the events it emitted, and none is accepted after it. A
   * failed hand-off rejects.
   */
  async runFinished(): Promise<void> {
    await condition(() => this.mayEnd());
    await this.handedOver;
  }
}

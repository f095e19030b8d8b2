import { allHandlersFinished, condition, patched } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { NotificationEvent, NotificationType } from '../../contract/notifications.js';
import { internalActivities, temporalCallOptions } from '../activity-options.js';

/**
 * Since these patches a workflow hands each state it adopts from the bank's record to its resource's outbox, which
 * POSTs it to the merchant (docs/merchant-notifications.md). Runs started before send nothing up to the point they
 * run on code that has the patch. One per workflow type, so each is deprecated when its own old runs are gone.
 */
export const merchantNotificationsPatch = 'merchant-notifications';
export const recurrenceNotificationsPatch = 'recurrence-notifications';
export const boletoNotificationsPatch = 'boleto-notifications';

const outbox = internalActivities<Pick<Activities, 'handOffNotification'>>(temporalCallOptions);

/** Where a journey counts the events it emitted: one integer, carried by continue-as-new with the journey. */
export interface NotificationCounter {
  notified?: number;
}

/**
 * A journey's notifications. Each event's id and content are decided here, in workflow code, so a replay, a retried
 * hand-over and a resend all carry the same event; they go to the outbox one after another, in sequence order.
 */
export class JourneyNotifier {
  private handedOver: Promise<void> = Promise.resolve();

  /**
   * `counter` answers where the journey counts its events (read when one is emitted); `patch` is the one that
   * brought notifications to the journey's workflow type.
   */
  constructor(
    private readonly counter: () => NotificationCounter,
    private readonly patch = merchantNotificationsPatch,
  ) {}

  /** Emits `type` for `resource`, as the bank's record (`data`, public fields) shows it now. */
  emit(resource: NotificationEvent['resource'], type: NotificationType, data: Record<string, unknown>): void {
    if (!patched(this.patch)) return;
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
  }

  /**
   * Resolves once every event emitted is with its outbox, those a handler emits meanwhile included: awaited before
   * the run ends or continues as new.
   */
  async handedOverAll(): Promise<void> {
    let awaited: Promise<void>;
    do {
      awaited = this.handedOver;
      await awaited;
    } while (awaited !== this.handedOver);
  }

  /** Resolves once the run may end: every handler finished and every event is with its outbox. */
  async runFinished(): Promise<void> {
    await condition(allHandlersFinished);
    await this.handedOverAll();
  }
}

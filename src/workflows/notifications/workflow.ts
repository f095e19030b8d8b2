import {
  ApplicationFailure,
  condition,
  continueAsNew,
  setHandler,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import {
  notificationSignal,
  notificationsMemoKey,
  notificationTimings,
  resendNotificationSignal,
  type NotificationsInput,
} from '../../contract/notifications.js';
import { internalActivities } from '../activity-options.js';
import { Outbox } from './outbox.js';

type Delivery = Pick<Activities, 'deliverNotification'>;

/** The outbox's delivery activity; a test worker's speedup shortens each attempt and the retry intervals, never the window. */
function deliveryActivities(speedup = 1): Delivery {
  const { initialIntervalMs, backoffCoefficient, maximumIntervalMs } = notificationTimings.retry;
  return internalActivities<Delivery>({
    startToCloseTimeout: notificationTimings.attemptTimeoutMs / speedup,
    scheduleToCloseTimeout: notificationTimings.deliveryWindow,
    retry: {
      initialInterval: initialIntervalMs / speedup,
      backoffCoefficient,
      maximumInterval: maximumIntervalMs / speedup,
    },
  });
}

/** The last answer a failed delivery got: its endpoint's, or why there was none. */
function failedAnswer(error: unknown): { attempts: number; answer: string } {
  let cause: unknown = error;
  while (cause instanceof Error) {
    if (cause instanceof ApplicationFailure) {
      const [attempt] = (cause.details ?? []) as number[];
      return { attempts: attempt ?? 0, answer: cause.message };
    }
    cause = cause.cause;
  }
  return { attempts: 0, answer: error instanceof Error ? error.message : String(error) };
}

/**
 * The merchant's notifications of one resource (docs/merchant-notifications.md): each endpoint gets the events in
 * sequence order, each POST retried for three days; an event id held already is ignored. The log of events and
 * deliveries is in the memo, where support reads it after the run ended. The run ends once nothing was left to
 * deliver for a while; a journey's next event starts a new one.
 */
export async function merchantNotificationsWorkflow(input: NotificationsInput): Promise<void> {
  const outbox = new Outbox(input.endpoints, input.resume ?? { events: [], deliveries: [] });
  const delivery = deliveryActivities(input.speedup);
  const publish = () => upsertMemo({ [notificationsMemoKey]: outbox.log });
  setHandler(notificationSignal, (event) => {
    if (outbox.add(event)) publish();
  });
  setHandler(resendNotificationSignal, ({ event, endpoint }) => {
    outbox.resend(event, endpoint);
    publish();
  });
  publish();

  const historyFull = () => workflowInfo().historyLength > notificationTimings.historyBound;
  const loops = input.endpoints.map((endpoint) => deliverTo(outbox, delivery, endpoint, publish));
  for (;;) {
    await condition(() => outbox.idle() || historyFull());
    if (historyFull()) break;
    if (!(await condition(() => !outbox.idle(), notificationTimings.idleMs))) break;
  }
  outbox.closing = true;
  await Promise.all(loops);
  if (!outbox.idle())
    await continueAsNew<typeof merchantNotificationsWorkflow>({ ...input, resume: outbox.log });
}

/** Delivers `endpoint` its events one after another, until the outbox closes. */
async function deliverTo(
  outbox: Outbox,
  delivery: Delivery,
  endpoint: string,
  publish: () => void,
): Promise<void> {
  for (;;) {
    await condition(() => outbox.closing || outbox.next(endpoint) !== undefined);
    const entry = outbox.next(endpoint);
    const event = entry && outbox.event(entry.eventId);
    if (outbox.closing || !entry || !event) return;
    try {
      const answered = await delivery.deliverNotification(endpoint, event);
      outbox.ended(entry, 'delivered', {
        attempts: answered.attempt,
        answer: `HTTP ${answered.status}`,
        at: new Date().toISOString(),
      });
    } catch (error) {
      outbox.ended(entry, 'failed', { ...failedAnswer(error), at: new Date().toISOString() });
    }
    publish();
  }
}

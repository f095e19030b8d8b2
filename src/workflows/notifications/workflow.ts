import { ApplicationFailure, condition, setHandler, upsertMemo, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import {
  notificationSignal,
  notificationsMemoKey,
  notificationTimings,
  resendNotificationSignal,
  type NotificationsInput,
} from '../../contract/notifications.js';
import { internalActivities } from '../activity-options.js';
import { continueWith, watchForNewVersion } from '../shared/journey-run.js';
import { Outbox, type DeliveryOutcome } from './outbox.js';

type Delivery = Pick<Activities, 'deliverNotification'>;

/**
 * The outbox's delivery activity; a test worker's speedup shortens each attempt and the retry intervals,
 * never the window.
 */
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
function failedAnswer(error: unknown): Omit<DeliveryOutcome, 'at'> {
  let cause: unknown = error;
  while (cause instanceof Error) {
    if (cause instanceof ApplicationFailure) {
      const [attempt, httpStatus] = (cause.details ?? []) as (number | undefined)[];
      return { attempts: attempt ?? 0, ...(httpStatus ? { httpStatus } : {}), answer: cause.message };
    }
    cause = cause.cause;
  }
  return { attempts: 0, answer: error instanceof Error ? error.message : String(error) };
}

/**
 * The merchant's notifications of one resource (docs/merchant-notifications.md): each endpoint gets the
 * events in sequence order, each POST retried for three days unless the endpoint's answer is final (a 4xx
 * other than 408 and 429), which fails that delivery at once and lets the next event go; an event id held
 * already is ignored. The memo keeps a log of a bounded size (counts, the deliveries pending and the last
 * ones), read after the run ended. The run ends once nothing was left to deliver for a while; a journey's
 * next event starts a new one. Past its history bound, or at a workflow task that finds a new version
 * current, it lets the deliveries under way end and continues as new with what is left, the next run on the
 * deployment's current version.
 */
export async function merchantNotificationsWorkflow(input: NotificationsInput): Promise<void> {
  const newVersion = watchForNewVersion();
  const outbox = new Outbox(input.endpoints, input.resume);
  const delivery = deliveryActivities(input.speedup);
  // Each upsert is a history event: the memo is written only when what it shows changed.
  let published: string | undefined;
  const publish = () => {
    const log = outbox.log();
    const text = JSON.stringify(log);
    if (text === published) return;
    published = text;
    upsertMemo({ [notificationsMemoKey]: log });
  };
  setHandler(notificationSignal, (event) => {
    if (outbox.add(event)) publish();
  });
  setHandler(resendNotificationSignal, ({ event, endpoint }) => {
    if (outbox.resend(event, endpoint)) publish();
  });
  if (input.resume) publish();

  const handOver = () => workflowInfo().historyLength > notificationTimings.historyBound || newVersion();
  const loops = input.endpoints.map((endpoint) => deliverTo(outbox, delivery, endpoint, publish));
  for (;;) {
    await condition(() => outbox.idle() || handOver());
    if (handOver()) break;
    if (!(await condition(() => !outbox.idle(), notificationTimings.idleMs))) break;
  }
  outbox.closing = true;
  await Promise.all(loops);
  // Nothing is in flight now, and no await comes between this check and continue-as-new: an event a signal
  // brought while the deliveries ended is owed, and carried.
  if (!outbox.idle())
    await continueWith<typeof merchantNotificationsWorkflow>('current', {
      ...input,
      resume: outbox.carried(),
    });
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
    const event = outbox.next(endpoint);
    if (outbox.closing || !event) return;
    outbox.start(endpoint, event);
    try {
      const answered = await delivery.deliverNotification(endpoint, event);
      outbox.ended(endpoint, event, 'delivered', {
        attempts: answered.attempt,
        httpStatus: answered.status,
        answer: `HTTP ${answered.status}`,
        at: new Date().toISOString(),
      });
    } catch (error) {
      outbox.ended(endpoint, event, 'failed', { ...failedAnswer(error), at: new Date().toISOString() });
    }
    publish();
  }
}

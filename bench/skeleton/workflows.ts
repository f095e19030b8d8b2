import {
  allHandlersFinished,
  condition,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type * as activities from './activities.js';

/** Answers once the three set-up activities ran, like bankflow's `paymentCreated`. */
export const createdUpdate = defineUpdate<string>('created');
/** Runs one activity and answers, like bankflow's `authorize` update. */
export const authorizeUpdate = defineUpdate<string, [string]>('authorize');
/** Stands for one bank webhook. */
export const eventSignal = defineSignal<[string]>('event');

/**
 * The webhooks of a settled payment: created, awaiting_consent, awaiting_payment, settled and the Pix
 * cash-in.
 */
export const journeySignals = 5;

const { noop } = proxyActivities<typeof activities>({ startToCloseTimeout: '30 seconds' });

/**
 * The engine's floor for one payment journey: the same activities (check enrollment, create, options,
 * authorize, confirm), updates (created, authorize) and signals (five webhooks) as bankflow's
 * payment workflow, in the same order, with no work in any of them.
 */
export async function skeletonJourney(): Promise<number> {
  let created = false;
  let events = 0;
  setHandler(eventSignal, () => {
    events++;
  });
  setHandler(createdUpdate, async () => {
    await condition(() => created);
    return 'options';
  });
  setHandler(authorizeUpdate, (assertion: string) => noop(assertion));

  await noop('check enrollment');
  await noop('create');
  await noop('options');
  created = true;
  await condition(() => events >= journeySignals);
  await noop('confirm');
  await condition(allHandlersFinished);
  return events;
}

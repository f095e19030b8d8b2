import {
  condition,
  defineQuery,
  defineSignal,
  defineUpdate,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';

export const nudge = defineSignal('nudge');
/** The same nudge as an update, as a merchant's request reaches a bankflow journey. */
export const nudgeUpdate = defineUpdate<void>('nudgeUpdate');
/** What the workflow has seen: a worker answering it from uncommitted events shows them here. */
export const progress = defineQuery<{ timerFired: boolean; nudged: boolean; done: string[] }>('progress');

const { afterTimer, afterNudge } = proxyActivities<{
  afterTimer(): Promise<string>;
  afterNudge(): Promise<string>;
}>({ startToCloseTimeout: '30 seconds' });

/**
 * Two branches that each schedule an activity: one when its timer fires, one when the signal comes. When the
 * timer fires and the signal (or the update) arrives while no worker polls, the next workflow task carries
 * both, and the order of the two ScheduleActivityTask commands is what a replay must reproduce.
 */
export async function timerAndSignal(timerMs: number): Promise<string[]> {
  const done: string[] = [];
  let nudged = false;
  let timerFired = false;
  setHandler(nudge, () => {
    nudged = true;
  });
  setHandler(nudgeUpdate, () => {
    nudged = true;
  });
  setHandler(progress, () => ({ timerFired, nudged, done }));
  await Promise.all([
    (async () => {
      await sleep(timerMs);
      timerFired = true;
      done.push(await afterTimer());
    })(),
    (async () => {
      await condition(() => nudged);
      done.push(await afterNudge());
    })(),
  ]);
  return done;
}

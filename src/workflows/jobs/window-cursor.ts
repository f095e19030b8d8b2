import {
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  log,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import { internalActivities, temporalCallOptions } from '../activity-options.js';
import { memoKeys } from '../../contract/memo.js';
import { publishToMemo } from '../shared/published-memo.js';
import {
  windowClaimSignal,
  windowDoneSignal,
  windowGrantSignal,
  type WindowCursorState,
} from '../../contract/window-cursor.js';
import { catchingUp, WindowCursor, type Answer } from './window-cursor-state.js';

const temporal =
  internalActivities<Pick<Activities, 'jobRunIsOpen' | 'catchUpWindowEnd'>>(temporalCallOptions);

/** While claims wait, how often the run holding the window is checked for having ended without completing it. */
const holderCheckInterval = '1 minute';

/** Each claim costs about a dozen events; a fresh run every 2,000 keeps the history short. */
const eventsPerRun = 2000;

async function send(cursor: WindowCursor, answer: Answer): Promise<void> {
  try {
    await getExternalWorkflowHandle(answer.workflowId).signal(windowGrantSignal, answer.grant);
  } catch (error) {
    if (isCancellation(error)) throw error;
    log.warn('the claiming run is gone; its window is released', { answer, error: String(error) });
    cursor.release(answer.grant.claimId);
  }
}

async function narrowed(cursor: WindowCursor, answer: Answer): Promise<Answer> {
  if (!catchingUp(answer)) return answer;
  const { from, to } = answer.grant.window;
  return cursor.narrow(answer, await temporal.catchUpWindowEnd(answer.scheduleId, from, to));
}

function publish(state: WindowCursorState): void {
  publishToMemo([{ key: memoKeys.state, value: state }]);
  setCurrentDetails(
    [
      `**Window cursor** — covered until ${state.coveredUntil ?? 'nothing yet'}`,
      state.held
        ? `Held by ${state.held.workflowId}: [${state.held.window.from}, ${state.held.window.to})`
        : 'No window held',
      `${state.waiting.length} claims waiting`,
    ].join('\n\n'),
  );
}

/**
 * Where one schedule's covered time ends, kept durably as workflow state: `window-cursor:<scheduleId>`, started by
 * the first run that claims a window. Runs claim a window by signal and get it back by signal; one window is held
 * at a time, waiting claims are answered in order once it is completed or its run has ended without completing
 * it, and a claim that has fallen behind by more than `maxScheduledTimesPerWindow` scheduled times gets a window
 * that long. It never ends: it continues as new with its state. Only runs started on bankflow 1.0 claim from it; it
 * is retired once none is left (docs/upgrading-workflows.md).
 */
export async function jobWindowCursor(carried?: WindowCursorState): Promise<never> {
  const cursor = new WindowCursor(carried ?? { coveredUntil: null, held: null, waiting: [] });
  let changed = false;
  setHandler(windowClaimSignal, (claim) => {
    cursor.claim(claim);
    changed = true;
  });
  setHandler(windowDoneSignal, (done) => {
    cursor.done(done);
    changed = true;
  });

  for (;;) {
    changed = false;
    const holder = cursor.blockedBy();
    if (holder && !(await temporal.jobRunIsOpen(holder.workflowId))) cursor.release(holder.claimId);
    for (const answer of cursor.repeated.splice(0)) await send(cursor, answer);
    for (let next = cursor.grantNext(); next; next = cursor.grantNext()) {
      await send(cursor, await narrowed(cursor, next));
    }
    publish(cursor.state);
    const info = workflowInfo();
    if (!changed && (info.continueAsNewSuggested || info.historyLength >= eventsPerRun)) {
      await continueAsNew<typeof jobWindowCursor>(cursor.state);
    }
    await condition(() => changed, cursor.blockedBy() ? holderCheckInterval : undefined);
  }
}

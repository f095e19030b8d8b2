import type { Workflow } from '@temporalio/common';
import {
  allHandlersFinished,
  condition,
  makeContinueAsNewFunc,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { versionCheckSignal } from '../../contract/versioning.js';
import type { JourneyNotifier } from './notifications.js';

/**
 * Which Worker Deployment version a continued run starts on (docs/upgrading-workflows.md): a long-lived
 * type's next run starts on the deployment's current version and is pinned there, so the type moves to a new
 * version without replaying any history on it; a short type's next run stays on the version that started the
 * journey.
 */
export type NextRunVersion = 'current' | 'same';

/**
 * The longest a long-lived run waits without a workflow task. Temporal tells a pinned run of a new current
 * version only in a workflow task and wakes no idle run for it, so each such run takes a task at least this
 * often: an old version then drains within a day once its short runs finished.
 */
export const versionCheckIntervalMs = 24 * 60 * 60_000;

/**
 * Answers whether a new Worker Deployment version became current since this run was pinned to its own.
 * Temporal says so in the workflow task that first learns it (`targetWorkerDeploymentVersionChanged`); this
 * watch, begun at the run's start, keeps it for a later task where the run can move, since a run moves only
 * where its state is whole. The version check signal (`bankflow deployments move`) needs no handling beyond
 * its task, which wakes the run.
 */
export function watchForNewVersion(): () => boolean {
  setHandler(versionCheckSignal, () => undefined);
  let seen = false;
  void condition(() => workflowInfo().targetWorkerDeploymentVersionChanged).then(() => {
    seen = true;
  });
  return () => seen || workflowInfo().targetWorkerDeploymentVersionChanged;
}

/**
 * Continues as new with `args`, keeping the memo and search attributes, so callers and support read the same
 * workflow across runs; the next run starts on the version `nextRun` names. The caller reads `args` in the
 * workflow task it continues in, after every handler finished.
 */
export function continueWith<F extends Workflow>(
  nextRun: NextRunVersion,
  ...args: Parameters<F>
): Promise<never> {
  const info = workflowInfo();
  const next = makeContinueAsNewFunc<F>({
    memo: info.memo,
    typedSearchAttributes: info.typedSearchAttributes,
    ...(nextRun === 'current' ? { initialVersioningBehavior: 'AUTO_UPGRADE' as const } : {}),
  });
  return next(...args);
}

/**
 * Hands the journey to a fresh run of the same workflow once the run may end (`notifier.runFinished`: every
 * handler finished, every notification with its outbox): the input again, with `resume()` carrying what the
 * run learned. `resume` is read at the hand-over, in the workflow task that checked, so it holds what every
 * message the run accepted did, and no message can come between the check and the continue-as-new.
 */
export async function continueJourneyAsNew<Input extends { resume?: unknown }>(
  input: Input,
  resume: () => NonNullable<Input['resume']>,
  notifier: JourneyNotifier,
  nextRun: NextRunVersion,
): Promise<never> {
  await notifier.runFinished();
  return continueWith<(input: Input) => Promise<unknown>>(nextRun, { ...input, resume: resume() });
}

/**
 * For a long-lived type that keeps something until `done()` holds or `until` (epoch ms, workflow time)
 * passes: waits for either, with a workflow task at least every `versionCheckIntervalMs`, and answers whether
 * `done()` held. At a task that finds a new version current (`newVersion`), the run continues as new onto it
 * once every handler finished, with the arguments `next()` reads then: what every message the run accepted
 * did.
 */
export async function waitOnCurrentVersion<F extends Workflow>(
  done: () => boolean,
  until: number,
  newVersion: () => boolean,
  next: () => Parameters<F>,
): Promise<boolean> {
  while (!done() && Date.now() < until) {
    if (newVersion()) {
      await condition(allHandlersFinished);
      return continueWith<F>('current', ...next());
    }
    await condition(() => done() || newVersion(), Math.min(until - Date.now(), versionCheckIntervalMs));
  }
  return done();
}

import type { JourneyNotifier } from './notifications.js';
import { makeContinueAsNewFunc, workflowInfo } from '@temporalio/workflow';

/**
 * Hands the journey to a fresh run of the same workflow once the run may end (`notifier.runFinished`: every handler
 * finished, every notification with its outbox): the input again, with `resume()` carrying what the run learned.
 * `resume` is read at the hand-over, in the workflow task that checked, so it holds what every message the run
 * accepted did, and no message can come between the check and the continue-as-new. The memo and search attributes
 * go along explicitly, so callers and support staff read the same journey across runs.
 */
export async function continueJourneyAsNew<Input extends { resume?: unknown }>(
  input: Input,
  resume: () => NonNullable<Input['resume']>,
  notifier: JourneyNotifier,
): Promise<never> {
  await notifier.runFinished();
  const info = workflowInfo();
  const next = makeContinueAsNewFunc<(input: Input) => Promise<unknown>>({
    memo: info.memo,
    typedSearchAttributes: info.typedSearchAttributes,
  });
  return next({ ...input, resume: resume() });
}

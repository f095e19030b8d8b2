import type { JourneyNotifier } from './notifications.js';
import { allHandlersFinished, condition, makeContinueAsNewFunc, workflowInfo } from '@temporalio/workflow';

/**
 * Hands the journey to a fresh run of the same workflow once every handler finished (and every notification
 * `notifier` holds is with its outbox): the input again, with `resume` carrying what the run learned. The memo and
 * search attributes go along explicitly, so callers and support staff read the same journey across runs.
 */
export async function continueJourneyAsNew<Input extends { resume?: unknown }>(
  input: Input,
  resume: NonNullable<Input['resume']>,
  notifier?: JourneyNotifier,
): Promise<never> {
  await condition(allHandlersFinished);
  await notifier?.handedOverAll();
  const info = workflowInfo();
  const next = makeContinueAsNewFunc<(input: Input) => Promise<unknown>>({
    memo: info.memo,
    typedSearchAttributes: info.typedSearchAttributes,
  });
  return next({ ...input, resume });
}

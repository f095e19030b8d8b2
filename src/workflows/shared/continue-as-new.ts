import { allHandlersFinished, condition, makeContinueAsNewFunc, workflowInfo } from '@temporalio/workflow';

/**
 * Hands the journey to a fresh run of the same workflow once every handler finished: the input again, with
 * `resume` carrying what the run learned. The memo and search attributes go along explicitly, so callers and
 * support staff read the same journey across runs.
 */
export async function continueJourneyAsNew<Input extends { resume?: unknown }>(
  input: Input,
  resume: NonNullable<Input['resume']>,
): Promise<never> {
  await condition(allHandlersFinished);
  const info = workflowInfo();
  const next = makeContinueAsNewFunc<(input: Input) => Promise<unknown>>({
    memo: info.memo,
    typedSearchAttributes: info.typedSearchAttributes,
  });
  return next({ ...input, resume });
}

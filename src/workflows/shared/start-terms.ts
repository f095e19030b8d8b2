import { workflowInfo } from '@temporalio/workflow';
import { memoKeys } from '../../contract/memo.js';
import {
  differingTerms,
  isPlainObject,
  startTermsConflict,
  type StartTerms,
} from '../../contract/start-terms.js';
import { refusal } from './merchant-requests.js';

/**
 * Refuses a start that joins this workflow with other terms than the first start recorded in the memo: the
 * validator of a start update; the caller compares the terms itself to name them.
 */
export function checkStartTerms(requested: StartTerms | undefined, sensitive: readonly string[] = []): void {
  const recorded = workflowInfo().memo?.[memoKeys.terms];
  if (!requested || !isPlainObject(recorded)) return;
  if (differingTerms(recorded, requested, sensitive).length > 0)
    throw refusal(`the workflow was started with other terms`, startTermsConflict);
}

import { patched } from '@temporalio/workflow';
import type { PaymentInput } from './definitions.js';

/**
 * Whether this run asks the bank, and re-publishes its memo, only when the journey's course changes: a webhook
 * sends the workflow to the bank's GET only when its status would change what the workflow does next (not for
 * `created` to `awaiting_consent`, a step it waits through the same way); a successful authorize is not followed
 * by a GET, its answer being the bank's record; a webhook that changes nothing the merchant reads leaves the memo
 * alone, the current details still showing it. Runs started before this rule did all three; their histories must
 * replay as written, so a run takes the rule once, as it starts, and keeps it to its end.
 *
 * A run whose input states the rule (every start through bankflow's starter) takes it without asking the patch:
 * the patch's marker and the search-attribute upsert Temporal adds to it are two history events and a visibility
 * write per payment. Runs without the statement, recorded before or started by hand, ask the patch as before.
 */
export const readsOnlyOnCourseChange = (input: PaymentInput): boolean =>
  input.readsOnCourseChange === true || patched('payment-reads-on-course-change');

import { patched } from '@temporalio/workflow';

/**
 * Whether this run asks the bank, and re-publishes its memo, only when the journey's course changes: a webhook
 * sends the workflow to the bank's GET only when its status would change what the workflow does next (not for
 * `created` to `awaiting_consent`, a step it waits through the same way); a successful authorize is not followed
 * by a GET, its answer being the bank's record; a webhook that changes nothing the merchant reads leaves the memo
 * alone, the current details still showing it. Runs started before this rule did all three; their histories must
 * replay as written, so a run takes the rule once, as it starts, and keeps it to its end.
 */
export const readsOnlyOnCourseChange = (): boolean => patched('payment-reads-on-course-change');

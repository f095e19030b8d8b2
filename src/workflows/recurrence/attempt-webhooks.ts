import { ActivityFailure, condition, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { CollectionAttempt } from '../../bank/schemas/collection-attempt.js';
import { bankCallOptions } from '../activity-options.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import { toRecurrenceAttempt } from './definitions.js';
import type { RecurrenceRun } from './run.js';

/** A read that keeps failing is tried again by the confirmation's own backoff, so the workflow never waits on it. */
const reads = proxyActivities<Pick<Activities, 'getCollectionAttempt'>>({
  ...bankCallOptions,
  retry: { ...bankCallOptions.retry, maximumAttempts: 3 },
});

/**
 * Takes in a `recurrence_collection_attempt` webhook as a hint: the attempt it names is announced for the bank's
 * GET to confirm (attempt-confirmations.ts); a webhook about another recurrence is counted as ignored.
 */
export function heardAttemptWebhook(run: RecurrenceRun, event: ReceivedWebhook): void {
  const { state, externalId } = run;
  // A webhook may omit the key the receiver routed by; the recurrence id still ties it to this recurrence.
  const attempt = event.resource?.kind === 'collection-attempt' ? event.resource.data : undefined;
  const ours =
    attempt !== undefined &&
    (attempt.external_id === externalId ||
      (state.recurrenceId !== undefined && attempt.recurrence_id === state.recurrenceId));
  if (!attempt || !ours) {
    state.updates.ignored++;
    return;
  }
  state.updates.fromWebhooks++;
  run.confirmations.announce(attempt.id, attempt.status, Date.now());
  run.publish();
}

/** The attempt as the bank's GET shows it; undefined while the bank does not answer it. */
async function read(attemptId: string): Promise<CollectionAttempt | undefined> {
  try {
    return await reads.getCollectionAttempt(attemptId);
  } catch (error) {
    if (error instanceof ActivityFailure) return undefined;
    throw error;
  }
}

/** Reads every announced attempt whose turn has come and takes what the bank answers. */
async function confirmDue(run: RecurrenceRun): Promise<void> {
  const { confirmations, state } = run;
  const isOurs = (attempt: CollectionAttempt) =>
    attempt.external_id === run.externalId || attempt.recurrence_id === state.recurrenceId;
  for (const attemptId of confirmations.due(Date.now())) {
    const attempt = await read(attemptId);
    if (attempt && !isOurs(attempt)) {
      confirmations.drop(attemptId);
      state.updates.ignored++;
    } else {
      if (attempt) run.take([toRecurrenceAttempt(attempt)], 'webhook');
      if (confirmations.settle(attemptId, attempt?.status, Date.now()) === 'expired') state.updates.ignored++;
    }
    run.publish();
  }
}

/** Until `stop` answers true, reads announced attempts as their turns come. */
export async function confirmAnnouncedAttempts(run: RecurrenceRun, stop: () => boolean): Promise<void> {
  const { confirmations } = run;
  while (!stop()) {
    const next = confirmations.nextAt();
    const sooner = () => stop() || (confirmations.nextAt() ?? Infinity) < (next ?? Infinity);
    if (next === undefined) await condition(sooner);
    else if (next > Date.now()) await condition(sooner, next - Date.now());
    await confirmDue(run);
  }
}

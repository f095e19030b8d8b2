import {
  ActivityFailure,
  ApplicationFailure,
  isCancellation,
  log,
  metricMeter,
  TimeoutFailure,
  workflowInfo,
} from '@temporalio/workflow';
import { readTimedOut, type BankTrouble } from '../../contract/bank-trouble.js';

/** Where a journey keeps its read trouble: carried through continue-as-new with the rest of its state. */
export interface TroubleHolder {
  bankTrouble?: BankTrouble;
}

/** The failure type and HTTP status of a failed read's cause (activities/failures.ts puts them there). */
function describeFailure(cause: Error | undefined): Pick<BankTrouble, 'type' | 'httpStatus'> {
  if (cause instanceof ApplicationFailure) {
    const [first] = (cause.details ?? []) as Array<{ status?: unknown } | undefined>;
    const httpStatus = typeof first?.status === 'number' ? first.status : undefined;
    return { type: cause.type ?? 'Error', ...(httpStatus === undefined ? {} : { httpStatus }) };
  }
  // Retries that ran out of time: the last attempt's failure says why, when there was one.
  if (cause instanceof TimeoutFailure)
    return cause.cause ? describeFailure(cause.cause) : { type: readTimedOut };
  return { type: cause?.name ?? 'Error' };
}

/**
 * Reads the bank for a journey. The bank's answer is the truth, but a failed or strange read is not: a
 * refusal of the credentials during a rotation, an outage, a body bankflow cannot read. Such a read answers
 * undefined and the journey follows the bank on at its usual, capped backoff; the trouble is recorded in
 * `holder` and shown (`changed`, once per change of condition), logged and counted the same, and it clears by
 * itself at the next read the bank answers, so fixing a credential needs no reset. Cancellation and bugs are
 * rethrown.
 */
export async function readBank<T>(
  holder: TroubleHolder,
  read: () => Promise<T>,
  changed: () => void,
): Promise<T | undefined> {
  let answer: T;
  try {
    answer = await read();
  } catch (error) {
    if (!(error instanceof ActivityFailure) || isCancellation(error)) throw error;
    if (troubled(holder, error)) changed();
    return undefined;
  }
  if (holder.bankTrouble) {
    const { type, since } = holder.bankTrouble;
    log.info('the bank answers reads again', { type, since, workflowId: workflowInfo().workflowId });
    delete holder.bankTrouble;
    changed();
  }
  return answer;
}

/**
 * Records a failed read; answers whether the condition changed (a read failing as the last one did does not).
 */
function troubled(holder: TroubleHolder, error: ActivityFailure): boolean {
  const failure = describeFailure(error.cause);
  const current = holder.bankTrouble;
  if (current && current.type === failure.type && current.httpStatus === failure.httpStatus) return false;
  holder.bankTrouble = { ...failure, since: new Date().toISOString() };
  log.warn('the bank fails reads of a journey; it is followed on and goes on once the bank answers', {
    ...failure,
    workflowId: workflowInfo().workflowId,
    workflowType: workflowInfo().workflowType,
  });
  metricMeter
    .createCounter(
      'bankflow_bank_read_trouble_total',
      '1',
      'Journeys whose bank reads began failing, by type',
    )
    .add(1, { type: failure.type, workflow: workflowInfo().workflowType });
  return true;
}

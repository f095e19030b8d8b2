import {
  proxyActivities,
  workflowInfo,
  type ActivityOptions,
  type RetryPolicy,
  type UntypedActivities,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { nonRetryableBankErrorTypes, type BankErrorType } from '../bank/vocabulary.js';
import {
  pollPriority,
  workloadTaskQueue,
  type InteractiveBankCall,
  type JourneyPollRead,
  type PollTrigger,
  type Workload,
} from '../contract/temporal.js';

/**
 * For work that fails only while something it needs is down (the bank, Temporal, the disk): from 1 s,
 * doubling, at most a minute apart, for as long as the activity's timeouts allow.
 */
export const outageRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '1 minute',
};

const bankCallStartToCloseMs = 30_000;

/** The outage retry, stopping at the bank's final answers except `types`, which it waits out too. */
function waitingOut(...types: BankErrorType[]): RetryPolicy {
  return {
    ...outageRetry,
    nonRetryableErrorTypes: nonRetryableBankErrorTypes.filter((type) => !types.includes(type)),
  };
}

/** A single bank call: short timeout, retried with backoff while the bank is unavailable. */
export const bankCallOptions: ActivityOptions = {
  startToCloseTimeout: bankCallStartToCloseMs,
  retry: { ...outageRetry, nonRetryableErrorTypes: nonRetryableBankErrorTypes },
};

/**
 * A read of a record the workflow follows (a GET, a list): retried sooner than a write, because a journey
 * waits on it, while the bank's own Retry-After still paces a rate-limited one.
 */
export const bankReadOptions: ActivityOptions = {
  startToCloseTimeout: '20 seconds',
  retry: { ...bankCallOptions.retry, maximumInterval: '10 seconds' },
};

/**
 * A journey's read of the record it follows (shared/follow-bank.ts): a refusal or an unreadable answer comes
 * back at once, and an outage after a few minutes of retries, so the journey records the trouble, stays
 * responsive to its hints and deadlines, and asks again at its own capped backoff.
 */
export const journeyReadOptions: ActivityOptions = {
  ...bankReadOptions,
  scheduleToCloseTimeout: '2 minutes',
};

/**
 * A check a customer waits on (an enrollment read before a payment): a refused credential or access (401,
 * 403, 409: a rotation or a permission change at the bank) and an unreadable answer are retried like an
 * outage until the window the caller bounds it with (boundedBy) closes. A 404 or a validation refusal is
 * about the merchant's request (a device the bank does not know), so it refuses the payment with the bank's
 * reason.
 */
export const checkReadOptions: ActivityOptions = {
  ...bankReadOptions,
  retry: {
    ...waitingOut('BankUnauthorized', 'BankRequestRejected', 'BankInvalidResponse'),
    maximumInterval: '10 seconds',
  },
};

/**
 * A write a customer waits on, always bounded by its window (boundedBy). A refused credential cannot be told
 * from a credential rotation at the bank, and an unreadable answer from a bank that changed its answers'
 * shape: both are retried like an outage until the window closes, which each of these writes can bear (an
 * external id, or one payment or step, makes a repeat answer the same). The bank's final refusals
 * (validation, 404, 403/409) are not.
 */
export const customerWriteOptions: ActivityOptions = {
  ...bankCallOptions,
  retry: waitingOut('BankUnauthorized', 'BankInvalidResponse'),
};

/**
 * A scheduled job's pages: a refused credential (a rotation at the bank) is waited out like an outage, so the
 * job's window is synced once the credential works again, with no rerun by hand.
 */
export const jobBankRetry: RetryPolicy = waitingOut('BankUnauthorized');

/** A call to Temporal itself (schedules, other workflows): retried while the server is away. */
export const temporalCallOptions: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: outageRetry,
};

/**
 * `options` for a bank call a customer waits on, bounded by the window it must land in (`deadline`, epoch ms
 * of workflow time, `now` likewise): no attempt is scheduled once the window closed, so a bank outage ends
 * the call instead of landing it at the bank after the customer left. Workflow time makes the bound replay
 * the same.
 */
export function boundedBy(options: ActivityOptions, deadline: number, now: number): ActivityOptions {
  // Zero would mean no bound at all: a window already closed leaves the call a millisecond, so it ends at
  // once.
  const leftMs = Math.max(deadline - now, 1);
  return {
    ...options,
    scheduleToCloseTimeout: leftMs,
    startToCloseTimeout: Math.min(leftMs, bankCallStartToCloseMs),
  };
}

/**
 * Activities scheduled on `workload`'s task queue beside the running workflow's own
 * (src/contract/temporal.ts). The queue is named after the workflow's, known only once a run executes, so
 * each call proxies anew.
 */
function onWorkload<A extends object>(workload: Workload, options: ActivityOptions): A {
  return new Proxy({} as A, {
    get: (_target, name) => {
      if (typeof name !== 'string') return undefined;
      return (...args: unknown[]) => {
        const taskQueue = workloadTaskQueue(workflowInfo().taskQueue, workload);
        const activities = proxyActivities<UntypedActivities>({ ...options, taskQueue });
        return activities[name]!(...args);
      };
    },
  });
}

/** Bank calls a customer waits on, on the interactive queue and its share of the bank's budget. */
export const interactiveActivities = <Name extends InteractiveBankCall>(options: ActivityOptions) =>
  onWorkload<Pick<Activities, Name>>('interactive', options);

/**
 * A journey's reads of the record it follows, on the polls queue and the fleet's poll budget; a read a
 * webhook asked for goes ahead of the ones timers fell due for.
 */
export const pollActivities = <Name extends JourneyPollRead>(
  options: ActivityOptions,
  trigger: PollTrigger = 'timer',
) => onWorkload<Pick<Activities, Name>>('polls', { ...options, priority: pollPriority[trigger] });

/** Activities that never call the bank, on the internal queue: no share of the bank's budget holds them. */
export const internalActivities = <A extends Partial<Activities>>(options: ActivityOptions) =>
  onWorkload<A>('internal', options);

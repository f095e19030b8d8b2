import type { PaymentJourney } from './definitions.js';
import { awaitingCustomer, isFinal } from './journey.js';
import { paymentTimings, type PaymentTimings } from './timings.js';

/** How the workflow follows the bank from now: until when, and whether it asks often. */
export interface FollowPlan {
  until: number;
  frequent: boolean;
  /** The customer-side status the plan was made for; a change means a new plan. */
  awaitingCustomer: boolean;
}

/**
 * The next stretch of following the bank, or undefined when there is none: the record is final or the deadline
 * passed. A payment still awaiting consent after its window is followed until `afterConsentWindowMs` past it; one
 * in processing for `processingMs` from when the bank first showed it so, often during the first
 * `frequentPollingMs`.
 */
export function followPlan(
  journey: PaymentJourney,
  now: number,
  timings: Pick<
    PaymentTimings,
    'afterConsentWindowMs' | 'processingMs' | 'frequentPollingMs'
  > = paymentTimings,
): FollowPlan | undefined {
  if (isFinal(journey)) return undefined;
  if (awaitingCustomer(journey)) {
    const until = Date.parse(journey.state.consentDeadline ?? '') + timings.afterConsentWindowMs;
    return now < until ? { until, frequent: true, awaitingCustomer: true } : undefined;
  }
  journey.processingSince ??= new Date(now).toISOString();
  const since = Date.parse(journey.processingSince);
  const until = since + timings.processingMs;
  if (now >= until) return undefined;
  const frequentUntil = since + timings.frequentPollingMs;
  return now < frequentUntil
    ? { until: frequentUntil, frequent: true, awaitingCustomer: false }
    : { until, frequent: false, awaitingCustomer: false };
}

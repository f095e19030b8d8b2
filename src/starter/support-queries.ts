import { visibilityLiteral } from '../temporal/visibility.js';
import { type EnrollmentPhase, enrollmentTimings } from '../contract/enrollment.js';
import { type PaymentPhase, paymentTimings } from '../contract/payment.js';
import { searchAttributes } from '../contract/temporal.js';

/**
 * A state a journey should have left within `withinMs` of its workflow's start. Visibility records no time of
 * a status change, so each limit counts from the start: the sum of the bank's windows up to the end of that
 * state.
 */
export type StuckRule =
  | { kind: 'payment'; status: PaymentPhase; withinMs: number; meaning: string }
  | { kind: 'enrollment'; status: EnrollmentPhase; withinMs: number; meaning: string };

const p = paymentTimings;
const e = enrollmentTimings;

export const stuckRules: readonly StuckRule[] = [
  {
    kind: 'payment',
    status: 'checking_enrollment',
    withinMs: p.consentWindowMs,
    meaning: 'the bank has not confirmed the enrollment for the whole consent window (bank outage?)',
  },
  {
    kind: 'payment',
    status: 'creating',
    withinMs: p.consentWindowMs,
    meaning: 'the bank has not created the payment for the whole consent window (bank outage?)',
  },
  {
    kind: 'payment',
    status: 'created',
    withinMs: p.consentWindowMs + p.afterConsentWindowMs,
    meaning: 'the bank still shows the payment waiting for consent an hour after the window closed',
  },
  {
    kind: 'payment',
    status: 'awaiting_consent',
    withinMs: p.consentWindowMs + p.afterConsentWindowMs,
    meaning: 'the bank still shows the payment waiting for consent an hour after the window closed',
  },
  {
    kind: 'payment',
    status: 'awaiting_payment',
    withinMs: p.consentWindowMs + p.frequentPollingMs,
    meaning: 'authorized, but the bank has not settled it within the hour of frequent polling',
  },
  {
    kind: 'enrollment',
    status: 'creating',
    withinMs: e.afterWindowMs,
    meaning: 'the bank has not created the enrollment (bank outage?)',
  },
  {
    kind: 'enrollment',
    status: 'awaiting_account_holder_validation',
    withinMs: e.accountHolderValidationMs + e.afterWindowMs,
    meaning: "the account holder's window at the bank closed, and the bank's record has not moved on",
  },
  {
    kind: 'enrollment',
    status: 'awaiting_enrollment',
    withinMs: e.accountHolderValidationMs + e.registrationMs + e.afterWindowMs,
    meaning: "the registration window closed, and the bank's record has not moved on",
  },
];

const clauses = (...parts: string[]) => parts.join(' AND ');
const equals = (name: string, value: string) => `${name} = ${visibilityLiteral(value)}`;

/** The visibility queries support tooling runs, the same text the Temporal UI's search box takes. */
export const supportQueries = {
  customer: (customerKey: string) => equals(searchAttributes.customerKey.name, customerKey),
  unmatched: (taskQueue: string) =>
    clauses(
      equals(searchAttributes.kind.name, 'webhook-unmatched'),
      equals('ExecutionStatus', 'Running'),
      equals('TaskQueue', taskQueue),
    ),
  /** The running journeys in a rule's state, whatever their age: a view to save in the UI. */
  inState: (rule: StuckRule, taskQueue: string) =>
    clauses(
      equals(searchAttributes.kind.name, rule.kind),
      equals(searchAttributes.status.name, rule.status),
      equals('ExecutionStatus', 'Running'),
      equals('TaskQueue', taskQueue),
    ),
  /** Those of them started longer ago than the rule allows, as of `now`. */
  stuck: (rule: StuckRule, taskQueue: string, now: Date) =>
    clauses(
      supportQueries.inState(rule, taskQueue),
      `StartTime < ${visibilityLiteral(new Date(now.getTime() - rule.withinMs).toISOString())}`,
    ),
};

/**
 * The payment journey as data and pure transitions, free of Temporal so it can be tested alone. The rule it
 * keeps: only the bank's own record (its answer to create, to authorize, or a GET) moves the journey; a webhook is
 * a hint that makes the workflow ask the bank, and none of its fields is ever adopted. Each part lives in its own
 * file: the journey and what it shows (journey.ts), taking the bank's record (bank-record.ts), taking a webhook
 * (webhook-hints.ts), how long to follow the bank (follow-plan.ts) and the result (outcome.ts).
 */
export { bankAnswered, type BankRecordSource } from './bank-record.js';
export { followPlan, type FollowPlan } from './follow-plan.js';
export {
  awaitingCustomer,
  cashInHeard,
  consentClosed,
  consentRefusal,
  isFinal,
  note,
  startJourney,
} from './journey.js';
export { conclude, paymentResult } from './outcome.js';
export { paymentHints, webhookHeard, type WebhookEffect } from './webhook-hints.js';

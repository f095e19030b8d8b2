import { paymentTimings, type PaymentInput, type PaymentJourney } from '../../contract/payment.js';
import { windowClosed } from '../shared/bank-failure.js';
import { boundedCalls, type BankCalls } from './bank-calls.js';

/**
 * The bank calls a customer waits on end with the window they belong to: the start's (the enrollment check,
 * the create and its authorization options) with a consent window counted from the start, an authorization
 * and fresh options with the payment's consent window. A start the bank could not serve in its window ends
 * the workflow as BankUnreachable, and nothing is sent to the bank for it afterwards.
 */
export const unreachable = {
  start:
    'the bank could not be reached within the consent window; nothing more is sent to it for this payment: pay again with a new external id',
  consent: 'the bank could not be reached before the consent window closed',
};

/** The windows a payment's customer-facing bank calls end with. */
export class CallWindows {
  /** When the start's calls give up: a consent window from the workflow's start, in workflow time. */
  private readonly startDeadline: number;

  constructor(input: PaymentInput) {
    this.startDeadline = Date.now() + (input.consentWindowMs ?? paymentTimings.consentWindowMs);
  }

  /** The calls of the start: the enrollment check, the create and the first authorization options. */
  start(): BankCalls {
    return boundedCalls(this.startDeadline);
  }

  /** The calls the customer makes while the consent window is open: fresh options, an authorization. */
  consent(journey: PaymentJourney): BankCalls {
    const deadline = Date.parse(journey.state.consentDeadline ?? '');
    return boundedCalls(deadline);
  }

  /** Whether `error` is one of this run's calls given up at the end of its window. */
  closed(error: unknown): boolean {
    return windowClosed(error);
  }
}

import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { refusal } from '../shared/merchant-requests.js';
import { bank, bankReads, now } from './bank-calls.js';
import type { AuthorizationResult, PaymentInput, PaymentJourney } from './definitions.js';
import { awaitingCustomer, consentRefusal, note, type BankRecordSource } from './machine.js';

/** What the customer's authorization needs of the journey's steps. */
export interface AuthorizationSteps {
  journey: PaymentJourney;
  input: Pick<PaymentInput, 'enrollmentId'>;
  paymentId(): string;
  /** Takes the bank's own record into the journey. */
  take(record: BiometricPayment, source: BankRecordSource): void;
  publish(): void;
}

/** Steps 3-4 as the merchant asks for them: authorization options and the customer's assertion. */
export class PaymentAuthorization {
  /** Whether an authorization is at the bank now: a second one is refused meanwhile. */
  authorizing = false;

  constructor(private readonly steps: AuthorizationSteps) {}

  /** Refuses a request that needs the consent window open, e.g. `an authorization`, once it closed. */
  checkConsentOpen(what: string): void {
    const closed = consentRefusal(this.steps.journey, what, Date.now());
    if (closed) throw refusal(closed);
  }

  /** Fresh authorization options from the bank. */
  async options(): Promise<string> {
    const { enrollmentId } = this.steps.input;
    return (await bank.getPaymentAuthorizationOptions(enrollmentId, this.steps.paymentId()))
      .public_key_encoded;
  }

  /** Step 4: the customer's assertion to the bank; a refusal is an answer the customer can retry. */
  async authorize(assertion: AuthorizeFidoAssertion): Promise<AuthorizationResult> {
    const { journey, input } = this.steps;
    const { enrollmentId } = input;
    const paymentId = this.steps.paymentId();
    this.authorizing = true;
    journey.state.authorizeAttempts++;
    try {
      const authorized = await bank.authorizeBiometricPayment(enrollmentId, paymentId, {
        fido_assertion: assertion,
        riskSignals: null,
      });
      this.steps.take(authorized, 'authorize');
      journey.authorizedAtBank = true;
      return { ok: true, status: authorized.status };
    } catch (error) {
      const refused = bankRefusal(error, correctableRefusals);
      // A retried authorize whose first try reached the bank is refused as a repeat: the bank's own record tells
      // whether the payment went through.
      const current = await bankReads.getBiometricPayment(enrollmentId, paymentId);
      this.steps.take(current, 'poll');
      if (!awaitingCustomer(journey)) return { ok: true, status: current.status };
      note(journey, { source: 'authorize', status: 'refused', at: now(), detail: refused.message });
      return { ok: false, status: current.status, reason: refused.message };
    } finally {
      this.authorizing = false;
      this.steps.publish();
    }
  }
}

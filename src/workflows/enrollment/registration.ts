import { condition } from '@temporalio/workflow';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { refusal } from '../shared/merchant-requests.js';
import { bank } from './bank-calls.js';
import type { EnrollmentJourney, RegistrationResult } from './definitions.js';

/** What the credential registration needs of the journey's steps. */
export interface RegistrationSteps {
  journey: EnrollmentJourney;
  /** Takes the bank's own record into the journey. */
  take(record: Enrollment, source: string): void;
}

const stepsBeforeAuthorization = ['creating', 'awaiting_account_holder_validation', 'awaiting_enrollment'];

/** Step 5 as the merchant asks for it: registration options and the credential the device created. */
export class EnrollmentRegistration {
  /** Whether a credential registration is at the bank now: a second one is refused meanwhile. */
  registering = false;

  constructor(private readonly steps: RegistrationSteps) {}

  /** Refuses a request for a step the journey is past: ended, or authorized. */
  checkStepAhead(what: string): void {
    const { phase } = this.steps.journey.state;
    if (!stepsBeforeAuthorization.includes(phase))
      throw refusal(`${what} is possible only while the enrollment is awaiting_enrollment; it is ${phase}`);
  }

  /** Refuses a request that needs the registration step now. */
  checkRegistrationStep(what: string): void {
    const { phase } = this.steps.journey.state;
    if (phase !== 'awaiting_enrollment')
      throw refusal(`${what} is possible only while the enrollment is awaiting_enrollment; it is ${phase}`);
  }

  /**
   * Fresh registration options. A merchant may ask as soon as the customer is back from the bank, before the
   * bank's authorization reached the workflow, so the request waits for the step instead of being refused.
   */
  async options(): Promise<string> {
    const { state } = this.steps.journey;
    await condition(() => state.phase !== 'creating' && state.phase !== 'awaiting_account_holder_validation');
    this.checkRegistrationStep('fetching registration options');
    return (await bank.getRegistrationOptions(state.enrollmentId ?? '')).public_key_encoded;
  }

  /** Registers the credential the device created; a bank refusal is an answer the merchant can retry. */
  async register(assertion: RegisterFidoAssertion): Promise<RegistrationResult> {
    this.registering = true;
    try {
      const registered = await bank.registerCredential(this.steps.journey.state.enrollmentId ?? '', {
        fido_assertion: assertion,
      });
      this.steps.take(registered, 'register response');
      return { ok: true, status: registered.status, enrollment: registered };
    } catch (error) {
      const refused = bankRefusal(error, correctableRefusals);
      return { ok: false, reason: refused.message, errors: refused.details };
    } finally {
      this.registering = false;
    }
  }
}

import { allHandlersFinished, ApplicationFailure, condition } from '@temporalio/workflow';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { continueJourneyAsNew } from '../shared/continue-as-new.js';
import { JourneySteps } from '../shared/journey-steps.js';
import { answered, refused } from '../shared/merchant-requests.js';
import { defaultPolling, followBank } from '../shared/polling.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import type {
  EnrollmentInput,
  EnrollmentJourney,
  EnrollmentResult,
  EnrollmentStarted,
} from './definitions.js';
import {
  bankAnswered,
  bankAuthorized,
  concludeAuthorized,
  conclude,
  ended,
  enrollmentHints,
  enrollmentResult,
  pendingStep,
  startJourney,
  stepExpired,
  webhookHeard,
} from './machine.js';
import { bank, bankReads } from './bank-calls.js';
import { enrollmentPresentation } from './presentation.js';
import { EnrollmentRegistration } from './registration.js';
import { installEnrollmentHandlers } from './requests.js';
import { enrollmentTimings } from './timings.js';
import { failureTypes } from '../failure-types.js';

export const started = (created: Enrollment): EnrollmentStarted => ({
  enrollmentId: created.id,
  redirectUrl: created.redirect_url,
  status: created.status,
  expirationDatetime: created.expiration_datetime,
});

/**
 * The steps of an enrollment journey that talk to the bank and to Temporal, and the handlers for what arrives
 * while they run. What the bank's answers mean is the journey machine's (machine.ts).
 */
export class EnrollmentSteps extends JourneySteps<EnrollmentJourney, EnrollmentStarted> {
  private readonly polling;
  private readonly hints;
  readonly registration = new EnrollmentRegistration(this);

  constructor(private readonly input: EnrollmentInput) {
    super(input.resume?.journey ?? startJourney(input), input.resume?.replies, enrollmentPresentation);
    this.polling = input.polling ?? defaultPolling;
    this.hints = enrollmentHints(this.journey);
    installEnrollmentHandlers(this);
  }

  // Step 4: create the enrollment; the merchant's update-with-start call is answered from here.
  async create(): Promise<void> {
    const { input, journey } = this;
    let created: Enrollment;
    try {
      created = await bank.createEnrollment({
        device_id: input.deviceId,
        participant_id: input.participantId,
        return_to_url: input.returnToUrl,
        external_id: input.externalId,
        ...(input.suggestedAccount ? { account_info: input.suggestedAccount } : {}),
      });
    } catch (error) {
      const refusedCreate = bankRefusal(error, correctableRefusals);
      conclude(journey, 'rejected', `the bank refused to create the enrollment: ${refusedCreate.message}`);
      const reason = journey.state.reason ?? refusedCreate.message;
      this.replies.answerStart(refused(reason, failureTypes.enrollmentRefused));
      await condition(allHandlersFinished);
      throw ApplicationFailure.create({
        type: failureTypes.enrollmentRefused,
        message: reason,
        nonRetryable: true,
      });
    }
    this.take(created, 'create response');
    this.replies.answerStart(answered(started(created)));
  }

  /**
   * Steps 5-6: the account holder authorizes at the bank, the credential is registered, and the bank's record shows
   * the enrollment authorized. Each step has the bank's window; a step the bank still shows once its window and a
   * grace period passed ends the journey as expired.
   */
  async waitForAuthorization(): Promise<void> {
    const { journey, input } = this;
    const windowOf = {
      awaiting_account_holder_validation:
        input.deadlines?.accountHolderValidationMs ?? enrollmentTimings.accountHolderValidationMs,
      awaiting_enrollment: input.deadlines?.registrationMs ?? enrollmentTimings.registrationMs,
    };
    while (!ended(journey) && !bankAuthorized(journey)) {
      const step = pendingStep(journey);
      if (!step) break;
      const arrived = await followBank({
        done: () => ended(journey) || bankAuthorized(journey) || pendingStep(journey) !== step,
        deadline: Date.now() + windowOf[step] + enrollmentTimings.afterWindowMs,
        poll: () => this.poll(),
        polling: this.polling,
        hints: this.hints.forWait(() => this.registration.registering),
      });
      await condition(() => !this.registration.registering);
      if (arrived === 'deadline' && pendingStep(journey) === step) stepExpired(journey);
    }
    if (!ended(journey) && bankAuthorized(journey)) concludeAuthorized(journey, input);
    this.publish();
  }

  /**
   * While authorized, the workflow stays with the enrollment until the bank revokes or expires it: a webhook sends
   * it to the bank's list, and a daily check covers a lost one. Each run's history stays under the bound.
   */
  async watchWhileAuthorized(): Promise<void> {
    const { journey } = this;
    // A run continued from the previous one makes sure the memo holds the journey before it waits for a day.
    this.publishToCallers();
    while (!ended(journey)) {
      const end = await followBank({
        done: () => ended(journey),
        deadline: Number.POSITIVE_INFINITY,
        poll: () => this.poll(),
        polling: {
          firstPollAfterMs: enrollmentTimings.authorizedCheckIntervalMs,
          maxPollIntervalMs: enrollmentTimings.authorizedCheckIntervalMs,
        },
        hints: this.hints.forWait(),
        historyBound: enrollmentTimings.historyBound - enrollmentTimings.historyHeadroom,
      });
      if (end === 'history-full') await this.continueAsNew();
    }
  }

  async finish(): Promise<EnrollmentResult> {
    this.publish();
    await condition(allHandlersFinished);
    return enrollmentResult(this.journey);
  }

  /** Takes the bank's own record; publishes only when it changed the journey. */
  take(record: Enrollment, source: string): void {
    if (bankAnswered(this.journey, record, source)) this.publish();
  }

  private async poll(): Promise<void> {
    const { state } = this.journey;
    if (!state.enrollmentId) return;
    state.polls++;
    const page = await bankReads.listEnrollments({ device_id: this.input.deviceId });
    const latest = page.data.find((candidate) => candidate.id === state.enrollmentId);
    if (latest) this.take(latest, 'its enrollment list');
  }

  /** Takes a webhook the receiver routed here. */
  receive(event: ReceivedWebhook): void {
    if (this.inbox.isNew(event, this.journey.state) && webhookHeard(this.journey, event) === 'ask-bank')
      this.hints.heard(event);
  }

  private continueAsNew(): Promise<never> {
    return continueJourneyAsNew(this.input, { journey: this.journey, replies: this.replies.all() });
  }
}

import { allHandlersFinished, ApplicationFailure, condition, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import { bankCallOptions, bankReadOptions } from '../activity-options.js';
import { searchAttributes } from '../search-attributes.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { continueJourneyAsNew } from '../shared/continue-as-new.js';
import { JourneySteps } from '../shared/journey-steps.js';
import { answered, refusal, refused } from '../shared/merchant-requests.js';
import { defaultPolling, followBank } from '../shared/polling.js';
import { memoKeys, type MemoEntry } from '../shared/published-memo.js';
import type { KeywordValue } from '../shared/search-attributes-publisher.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import type {
  EnrollmentInput,
  EnrollmentJourney,
  EnrollmentResult,
  EnrollmentStarted,
  RegistrationResult,
} from './definitions.js';
import {
  bankAnswered,
  bankAuthorized,
  concludeAuthorized,
  conclude,
  ended,
  enrollmentResult,
  hasOutcome,
  pendingStep,
  startJourney,
  stepExpired,
  webhookHeard,
} from './machine.js';
import { installEnrollmentHandlers } from './requests.js';
import { enrollmentTimings } from './timings.js';

const bank =
  proxyActivities<Pick<Activities, 'createEnrollment' | 'getRegistrationOptions' | 'registerCredential'>>(
    bankCallOptions,
  );
const bankReads = proxyActivities<Pick<Activities, 'listEnrollments'>>(bankReadOptions);

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
  /** Whether a credential registration is at the bank now: a second one is refused meanwhile. */
  registering = false;

  constructor(private readonly input: EnrollmentInput) {
    super(input.resume?.journey ?? startJourney(input), input.resume?.replies);
    this.polling = input.polling ?? defaultPolling;
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
      this.replies.answerStart(refused(reason, 'EnrollmentRefused'));
      await condition(allHandlersFinished);
      throw ApplicationFailure.create({ type: 'EnrollmentRefused', message: reason, nonRetryable: true });
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
        hints: () => this.hints,
      });
      await condition(() => !this.registering);
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
        hints: () => this.hints,
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
  private take(record: Enrollment, source: string): void {
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
      this.hints++;
  }

  private continueAsNew(): Promise<never> {
    return continueJourneyAsNew(this.input, { journey: this.journey, replies: this.replies.all() });
  }

  protected memoEntries(): MemoEntry[] {
    return [
      { key: memoKeys.state, value: this.journey.state },
      { key: memoKeys.outcome, value: hasOutcome(this.journey) ? enrollmentResult(this.journey) : undefined },
    ];
  }

  protected searchAttributeValues(): KeywordValue[] {
    const { state } = this.journey;
    return [
      { key: searchAttributes.status, value: state.phase },
      ...(state.enrollmentId ? [{ key: searchAttributes.enrollmentId, value: state.enrollmentId }] : []),
    ];
  }

  protected details(): string[] {
    const { state } = this.journey;
    return [
      `**Enrollment** ${state.enrollmentId ?? '(not created yet)'} — **${state.phase}**`,
      `Device ${state.deviceId}, participant ${state.participantId}`,
      state.reason ? `Outcome: ${state.reason}` : `Waiting for: ${this.waitingFor()}`,
      `Webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored), polls: ${state.polls}`,
    ];
  }

  private waitingFor(): string {
    switch (this.journey.state.phase) {
      case 'creating':
        return 'the bank to create the enrollment';
      case 'awaiting_account_holder_validation':
        return 'the account holder to authorize at the bank';
      case 'awaiting_enrollment':
        return 'the biometric credential registration';
      default:
        return 'the bank to confirm';
    }
  }

  /** Refuses a request for a step the journey is past: ended, or authorized. */
  checkStepAhead(what: string): void {
    const { phase } = this.journey.state;
    if (!['creating', 'awaiting_account_holder_validation', 'awaiting_enrollment'].includes(phase))
      throw refusal(`${what} is possible only while the enrollment is awaiting_enrollment; it is ${phase}`);
  }

  /** Refuses a request that needs the registration step now. */
  checkRegistrationStep(what: string): void {
    const { phase } = this.journey.state;
    if (phase !== 'awaiting_enrollment')
      throw refusal(`${what} is possible only while the enrollment is awaiting_enrollment; it is ${phase}`);
  }

  /**
   * Fresh registration options. A merchant may ask as soon as the customer is back from the bank, before the
   * bank's authorization reached the workflow, so the request waits for the step instead of being refused.
   */
  async registrationOptions(): Promise<string> {
    const { state } = this.journey;
    await condition(() => state.phase !== 'creating' && state.phase !== 'awaiting_account_holder_validation');
    this.checkRegistrationStep('fetching registration options');
    return (await bank.getRegistrationOptions(state.enrollmentId ?? '')).public_key_encoded;
  }

  /** Step 5: registers the credential the device created; a bank refusal is an answer the merchant can retry. */
  async registerCredential(assertion: RegisterFidoAssertion): Promise<RegistrationResult> {
    this.registering = true;
    try {
      const registered = await bank.registerCredential(this.journey.state.enrollmentId ?? '', {
        fido_assertion: assertion,
      });
      this.take(registered, 'register response');
      return { ok: true, status: registered.status, enrollment: registered };
    } catch (error) {
      const refusedRegistration = bankRefusal(error, correctableRefusals);
      return { ok: false, reason: refusedRegistration.message, errors: refusedRegistration.details };
    } finally {
      this.registering = false;
    }
  }
}

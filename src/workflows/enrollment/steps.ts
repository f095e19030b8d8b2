import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setCurrentDetails,
  setHandler,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import { bankCallOptions, bankReadOptions } from '../activity-options.js';
import { searchAttributes } from '../search-attributes.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { continueJourneyAsNew } from '../shared/continue-as-new.js';
import { EventInbox } from '../shared/event-inbox.js';
import { answered, MerchantReplies, refused, startReplyId } from '../shared/merchant-requests.js';
import { defaultPolling, followBank } from '../shared/polling.js';
import { memoKeys, publishToMemo } from '../shared/published-memo.js';
import { SearchAttributesPublisher } from '../shared/search-attributes-publisher.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import {
  credentialRequest,
  enrollmentResultQuery,
  enrollmentStartedUpdate,
  enrollmentStateQuery,
  enrollmentWebhookSignal,
  registrationOptionsRequest,
  type EnrollmentInput,
  type EnrollmentJourney,
  type EnrollmentResult,
  type EnrollmentStarted,
  type RegistrationResult,
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
import { enrollmentTimings } from './timings.js';

const bank =
  proxyActivities<Pick<Activities, 'createEnrollment' | 'getRegistrationOptions' | 'registerCredential'>>(
    bankCallOptions,
  );
const bankReads = proxyActivities<Pick<Activities, 'listEnrollments'>>(bankReadOptions);

const started = (created: Enrollment): EnrollmentStarted => ({
  enrollmentId: created.id,
  redirectUrl: created.redirect_url,
  status: created.status,
  expirationDatetime: created.expiration_datetime,
});

/**
 * The steps of an enrollment journey that talk to the bank and to Temporal, and the handlers for what arrives
 * while they run. What the bank's answers mean is the journey machine's (machine.ts).
 */
export class EnrollmentSteps {
  readonly journey: EnrollmentJourney;
  private readonly inbox = new EventInbox();
  private readonly replies: MerchantReplies;
  private readonly searchAttributesPublisher = new SearchAttributesPublisher();
  private readonly polling;
  /** Webhooks that asked the workflow to read the bank's record. */
  private hints = 0;
  private registering = false;

  constructor(private readonly input: EnrollmentInput) {
    this.journey = input.resume?.journey ?? startJourney(input);
    this.replies = new MerchantReplies(() => this.publishToCallers(), input.resume?.replies);
    this.polling = input.polling ?? defaultPolling;
    this.installHandlers();
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
      const refusal = bankRefusal(error, correctableRefusals);
      conclude(journey, 'rejected', `the bank refused to create the enrollment: ${refusal.message}`);
      const reason = journey.state.reason ?? refusal.message;
      this.replies.set(startReplyId, refused(reason));
      await condition(allHandlersFinished);
      throw ApplicationFailure.create({ type: 'EnrollmentRefused', message: reason, nonRetryable: true });
    }
    this.take(created, 'create response');
    this.replies.set(startReplyId, answered(started(created)));
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

  private receive(event: ReceivedWebhook): void {
    if (this.inbox.isNew(event, this.journey.state) && webhookHeard(this.journey, event) === 'ask-bank')
      this.hints++;
  }

  private continueAsNew(): Promise<never> {
    return continueJourneyAsNew(this.input, { journey: this.journey, replies: this.replies.all() });
  }

  /** What the merchant reads (starter/published.ts). */
  private publishToCallers(): void {
    publishToMemo([
      { key: memoKeys.state, value: this.journey.state },
      { key: memoKeys.outcome, value: hasOutcome(this.journey) ? enrollmentResult(this.journey) : undefined },
      this.replies.memoEntry(),
    ]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  private publish(): void {
    const { state } = this.journey;
    this.publishToCallers();
    this.searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.phase },
      ...(state.enrollmentId ? [{ key: searchAttributes.enrollmentId, value: state.enrollmentId }] : []),
    ]);
    setCurrentDetails(
      [
        `**Enrollment** ${state.enrollmentId ?? '(not created yet)'} — **${state.phase}**`,
        `Device ${state.deviceId}, participant ${state.participantId}`,
        state.reason ? `Outcome: ${state.reason}` : `Waiting for: ${this.waitingFor()}`,
        `Webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored), polls: ${state.polls}`,
      ].join('\n\n'),
    );
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

  private installHandlers(): void {
    const { journey } = this;
    setHandler(enrollmentStateQuery, () => journey.state);
    setHandler(enrollmentResultQuery, () => (hasOutcome(journey) ? enrollmentResult(journey) : null));
    setHandler(enrollmentWebhookSignal, (event) => this.receive(event));
    setHandler(enrollmentStartedUpdate, async () => {
      await condition(() => journey.state.enrollmentId !== undefined || hasOutcome(journey));
      if (!journey.enrollment) {
        throw ApplicationFailure.create({
          type: 'EnrollmentRefused',
          message: journey.state.reason ?? 'no enrollment',
        });
      }
      return started(journey.enrollment);
    });
    // A merchant may ask as soon as the customer is back from the bank, before the bank's authorization reached the
    // workflow, so the request waits for the step instead of being refused.
    setHandler(registrationOptionsRequest.signal, ({ requestId }) =>
      this.replies.answer(requestId, async () => {
        await condition(
          () =>
            journey.state.phase !== 'creating' &&
            journey.state.phase !== 'awaiting_account_holder_validation',
        );
        if (journey.state.phase !== 'awaiting_enrollment') {
          return refused(
            `registration options are available only while the enrollment is awaiting_enrollment; it is ${journey.state.phase}`,
          );
        }
        return answered(
          (await bank.getRegistrationOptions(journey.state.enrollmentId ?? '')).public_key_encoded,
        );
      }),
    );
    setHandler(credentialRequest.signal, ({ requestId, assertion }) =>
      this.replies.answer(requestId, async () => {
        if (journey.state.phase !== 'awaiting_enrollment') {
          return refused(
            `a credential registration is possible only while the enrollment is awaiting_enrollment; it is ${journey.state.phase}`,
          );
        }
        if (this.registering)
          return refused('a credential registration is already in progress for this enrollment');
        this.registering = true;
        try {
          const registered = await bank.registerCredential(journey.state.enrollmentId ?? '', {
            fido_assertion: assertion,
          });
          this.take(registered, 'register response');
          return answered<RegistrationResult>({
            ok: true,
            status: registered.status,
            enrollment: registered,
          });
        } catch (error) {
          const refusal = bankRefusal(error, correctableRefusals);
          return answered<RegistrationResult>({
            ok: false,
            reason: refusal.message,
            errors: refusal.details,
          });
        } finally {
          this.registering = false;
        }
      }),
    );
  }
}

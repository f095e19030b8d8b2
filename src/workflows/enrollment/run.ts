import { condition, sleep } from '@temporalio/workflow';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import type {
  EnrollmentInput,
  EnrollmentJourney,
  EnrollmentStarted,
  RegisterRequest,
  RegistrationResult,
} from '../../contract/enrollment.js';
import { memoKeys, type MerchantReply } from '../../contract/memo.js';
import { bankTroubleValue, searchAttributes } from '../../contract/search-attributes.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';
import { bankRefusal, correctableRefusals, windowClosed } from '../shared/bank-failure.js';
import { readBank } from '../shared/bank-reads.js';
import { defaultPolling } from '../shared/polling.js';
import { EventInbox } from '../shared/event-inbox.js';
import { HintLedger } from '../shared/hint-ledger.js';
import { JourneyPublication, type JourneyPresentation } from '../shared/journey-publication.js';
import { refusal, requireAssertion, StartReply } from '../shared/merchant-requests.js';
import { bankReads, boundedWrites, type BankWrites } from './bank-calls.js';
import {
  bankAnswered,
  enrollmentDetails,
  enrollmentResult,
  hasOutcome,
  pendingStep,
  startJourney,
  stepWindowMs,
  webhookHeard,
} from './journey.js';
import { EnrollmentNotifier } from './notifications.js';

/**
 * What an enrollment publishes: its state and, once there is one, its outcome in the memo; its status;
 * details.
 */
const presentation: JourneyPresentation<EnrollmentJourney> = {
  memoEntries: (journey) => [
    { key: memoKeys.state, value: journey.state },
    { key: memoKeys.outcome, value: hasOutcome(journey) ? enrollmentResult(journey) : undefined },
  ],
  searchAttributes: ({ state }) => [
    { key: searchAttributes.status, value: state.phase },
    ...(state.enrollmentId ? [{ key: searchAttributes.enrollmentId, value: state.enrollmentId }] : []),
    { key: searchAttributes.bankTrouble, value: bankTroubleValue(state) },
  ],
  details: ({ state }) => enrollmentDetails(state),
};

const unreachableInStep = "the bank could not be reached before the step's window closed";

const stepsBeforeAuthorization = ['creating', 'awaiting_account_holder_validation', 'awaiting_enrollment'];

/**
 * A running enrollment: the journey (journey.ts), what it answered its start, the webhook hints not yet asked
 * about, and what the merchant's requests and the receiver's webhooks do to it. workflow.ts tells the story.
 */
export class EnrollmentRun {
  readonly journey: EnrollmentJourney;
  readonly startReply: StartReply<EnrollmentStarted>;
  /** The webhooks that asked the workflow to read the bank (hint-ledger.ts). */
  readonly hints: HintLedger<ReceivedWebhook>;
  /**
   * Whether a credential registration is at the bank now: a second one is refused, hints wait for its answer.
   */
  registering = false;
  /** The merchant's notifications of the states the journey adopts from the bank. */
  readonly notifier = new EnrollmentNotifier(() => this.journey);
  private readonly inbox: EventInbox;
  private readonly publication: JourneyPublication<EnrollmentJourney, EnrollmentStarted>;
  /** The step the customer is in, as far as its bank calls go, and when the bank's window for it closes. */
  private step: ReturnType<typeof pendingStep> = 'awaiting_account_holder_validation';
  private stepDeadline: number;

  constructor(readonly input: EnrollmentInput) {
    this.stepDeadline = Date.now() + stepWindowMs(input, 'awaiting_account_holder_validation');
    this.journey = input.resume?.journey ?? startJourney(input);
    this.startReply = new StartReply(input.resume?.replies.start);
    this.inbox = new EventInbox(input.resume?.webhookKeys);
    this.hints = new HintLedger((event) => webhookHeard(this.journey, event));
    this.publication = new JourneyPublication(this.journey, this.startReply, presentation);
  }

  /** The bank's writes of the step the customer is in, given up when its window closes. */
  writes(): BankWrites {
    return boundedWrites(this.stepDeadline);
  }

  /** Whether `error` is one of this run's writes given up at the end of its step's window. */
  windowClosed(error: unknown): boolean {
    return windowClosed(error);
  }

  /** The start's answer once there is one: the redirect URL, or the refusal. */
  async startAnswer(): Promise<EnrollmentStarted> {
    await condition(() => this.startReply.given);
    return this.startReply.answer();
  }

  /** Refuses a request for a step the journey is past: ended, or authorized. */
  checkStepAhead(what: string): void {
    const { phase } = this.journey.state;
    if (!stepsBeforeAuthorization.includes(phase))
      throw refusal(`${what} is possible only while the enrollment is awaiting_enrollment; it is ${phase}`);
  }

  checkRegistration(request: RegisterRequest): void {
    requireAssertion(request);
    const { phase } = this.journey.state;
    if (phase !== 'awaiting_enrollment')
      throw refusal(
        `a credential registration is possible only while the enrollment is awaiting_enrollment; it is ${phase}`,
      );
    if (this.registering)
      throw refusal('a credential registration is already in progress for this enrollment');
  }

  /**
   * 5. Fresh registration options. A merchant may ask as soon as the customer is back from the bank, before
   *    the bank's authorization reached the workflow, so the request waits for the step instead of being
   *    refused.
   */
  async registrationOptions(): Promise<string> {
    const { state } = this.journey;
    await condition(() => state.phase !== 'creating' && state.phase !== 'awaiting_account_holder_validation');
    if (state.phase !== 'awaiting_enrollment')
      throw refusal(
        `fetching registration options is possible only while the enrollment is awaiting_enrollment; it is ${state.phase}`,
      );
    const options = await this.writes()
      .getRegistrationOptions(state.enrollmentId ?? '')
      .catch((error: unknown) => {
        throw this.windowClosed(error) ? refusal(unreachableInStep) : error;
      });
    return options.public_key_encoded;
  }

  /** 5. Registers the credential the device created; a bank refusal is an answer the merchant can retry. */
  async register(assertion: RegisterFidoAssertion): Promise<RegistrationResult> {
    this.registering = true;
    try {
      const registered = await this.writes().registerCredential(this.journey.state.enrollmentId ?? '', {
        fido_assertion: assertion,
      });
      this.take(registered, 'register response');
      return { ok: true, status: registered.status, enrollment: registered };
    } catch (error) {
      if (this.windowClosed(error)) return { ok: false, reason: unreachableInStep, errors: [] };
      const refused = bankRefusal(error, correctableRefusals);
      return { ok: false, reason: refused.message, errors: refused.details };
    } finally {
      this.registering = false;
    }
  }

  /** 6. A webhook the receiver routed here: a hint to ask the bank, never the bank's word. */
  receive(event: ReceivedWebhook): void {
    if (this.inbox.isNew(event, this.journey.state) && webhookHeard(this.journey, event))
      this.hints.heard(event);
  }

  /** What the next run carries on from this one. */
  carry(): NonNullable<EnrollmentInput['resume']> {
    return {
      journey: this.journey,
      replies: this.startReply.kept(),
      webhookKeys: this.inbox.kept(),
      ...(this.hints.forWait().pending() ? { unansweredHint: true } : {}),
    };
  }

  /** Takes the bank's own record; publishes only when it changed the journey. */
  take(record: Enrollment, source: string): void {
    const previous = this.journey.enrollment?.status;
    if (!bankAnswered(this.journey, record, source)) return;
    this.notifier.adopted(previous, this.journey);
    // A step's window runs from when the bank's record showed the journey in it.
    const step = pendingStep(this.journey);
    if (step && step !== this.step) {
      this.step = step;
      this.stepDeadline = Date.now() + stepWindowMs(this.input, step);
    }
    this.publish();
  }

  /**
   * Reads the bank's record of the enrollment, from the device's enrollment list. A failed read changes
   * nothing but the trouble the journey shows (shared/bank-reads.ts): an authorized enrollment lives for
   * months, and a credential rotation at the bank must not end it.
   */
  async poll(): Promise<void> {
    const { state } = this.journey;
    if (!state.enrollmentId) return;
    state.polls++;
    const list = () => bankReads.listEnrollments({ device_id: this.input.deviceId });
    const page = await readBank(state, list, () => this.publish());
    const latest = page?.data.find((candidate) => candidate.id === state.enrollmentId);
    if (latest) this.take(latest, 'its enrollment list');
  }

  /**
   * The device's enrollments as the bank lists them, asked until it answers: what the journey does next
   * depends on whether the bank holds one, and a failed read does not say.
   */
  async devicesEnrollments(): Promise<Enrollment[]> {
    const list = () => bankReads.listEnrollments({ device_id: this.input.deviceId });
    const { polling = defaultPolling } = this.input;
    for (let waitMs = polling.firstPollAfterMs; ; waitMs = Math.min(waitMs * 2, polling.maxPollIntervalMs)) {
      const page = await readBank(this.journey.state, list, () => this.publish());
      if (page) return page.data;
      await sleep(waitMs);
    }
  }

  /** Answers the start, and shows the answer to callers at once. */
  answerStart(reply: MerchantReply<EnrollmentStarted>): void {
    this.startReply.set(reply);
    this.publication.toCallers();
  }

  /** What the merchant reads. */
  publishToCallers(): void {
    this.publication.toCallers();
  }

  publish(): void {
    this.publication.everywhere();
  }
}

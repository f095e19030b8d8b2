import { condition, sleep } from '@temporalio/workflow';
import type { Enrollment, EnrollmentStatus } from '../../bank/schemas/enrollment.js';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import type {
  EnrollmentInput,
  EnrollmentJourney,
  EnrollmentStarted,
  RegisterRequest,
  RegistrationResult,
} from '../../contract/enrollment.js';
import { bankTroubleValue, searchAttributes } from '../../contract/temporal.js';
import { memoKeys, type MerchantReply, EventInbox } from '../../contract/journeys.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';
import {
  bankRefusal,
  correctableRefusals,
  windowClosed,
  readBank,
  defaultPolling,
  HintLedger,
} from '../shared/follow-bank.js';
import {
  JourneyPublication,
  type JourneyPresentation,
  refusal,
  requireAssertion,
  StartReply,
  JourneyNotifier,
} from '../shared/journey-run.js';
import {
  adoptRecord,
  enrollmentDetails,
  enrollmentResult,
  hasOutcome,
  pendingStep,
  startJourney,
  stepWindowMs,
  webhookHeard,
} from './journey.js';
import type { Activities } from '../../activities/index.js';
import {
  boundedBy,
  customerWriteOptions,
  interactiveActivities,
  journeyReadOptions,
  pollActivities,
} from '../activity-options.js';
import type { NotificationType } from '../../contract/notifications.js';

// One enrollment run: `EnrollmentRun` holds the journey and its messages, reads the bank's record and writes
// to the bank within the account holder's windows, and answers the merchant's updates.

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
  /** The webhooks that asked the workflow to read the bank (shared/follow-bank.ts). */
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
  private step: ReturnType<typeof pendingStep>;
  private stepDeadline: number;

  constructor(readonly input: EnrollmentInput) {
    const { resume } = input;
    this.step = resume?.step?.name ?? 'awaiting_account_holder_validation';
    this.stepDeadline =
      resume?.step?.windowEndsAt ?? Date.now() + stepWindowMs(input, 'awaiting_account_holder_validation');
    this.journey = input.resume?.journey ?? startJourney(input);
    this.startReply = new StartReply(input.resume?.replies.start);
    this.inbox = new EventInbox(input.resume?.webhookKeys);
    this.hints = new HintLedger((event) => webhookHeard(this.journey, event));
    this.publication = new JourneyPublication(this.journey, this.startReply, presentation);
  }

  /** When the bank's window for the step the customer is in closes (epoch ms, workflow time). */
  stepWindowEnd(): number {
    return this.stepDeadline;
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
  async awaitStartReply(): Promise<EnrollmentStarted> {
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
      this.adopt(registered, 'register response');
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
      ...(this.step && pendingStep(this.journey)
        ? { step: { name: this.step, windowEndsAt: this.stepDeadline } }
        : {}),
    };
  }

  /** Adopts the bank's own record; publishes only when it changed the journey. */
  adopt(record: Enrollment, source: string): void {
    const previous = this.journey.enrollment?.status;
    if (!adoptRecord(this.journey, record, source)) return;
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
   * nothing but the trouble the journey shows (shared/follow-bank.ts): an authorized enrollment lives for
   * months, and a credential rotation at the bank must not end it.
   */
  async poll(): Promise<void> {
    const { state } = this.journey;
    if (!state.enrollmentId) return;
    state.polls++;
    const list = () => bankReads.listEnrollments({ device_id: this.input.deviceId });
    const page = await readBank(state, list, () => this.publish());
    const latest = page?.data.find((candidate) => candidate.id === state.enrollmentId);
    if (latest) this.adopt(latest, 'its enrollment list');
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
  replyToStart(reply: MerchantReply<EnrollmentStarted>): void {
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

export type BankWrites = Pick<
  Activities,
  'createEnrollment' | 'getRegistrationOptions' | 'registerCredential'
>;

/**
 * The bank's writes an enrollment journey makes, given up once `deadline` (workflow time) passes: the end of
 * the step the customer is in. The create carries the external id that makes a retry safe.
 */
export const boundedWrites = (deadline: number) =>
  interactiveActivities<keyof BankWrites>(boundedBy(customerWriteOptions, deadline, Date.now()));

/**
 * The bank's reads, the enrollment's polls (on the poll budget), retried briefly: a read that waits minutes
 * would keep the journey from its next hint.
 */
export const bankReads = pollActivities<'listEnrollments'>(journeyReadOptions);

/** The statuses of the bank's record the merchant acts on: it may charge the enrollment, or no longer. */
const statusNotifications: Partial<Record<EnrollmentStatus, NotificationType>> = {
  authorized: 'enrollment.authorized',
  revoked: 'enrollment.revoked',
};

/**
 * The event the journey owes the merchant when it adopts the bank's record with a status after `previous`.
 */
export function enrollmentNotification(
  previous: EnrollmentStatus | undefined,
  { enrollment }: EnrollmentJourney,
): NotificationType | undefined {
  return enrollment && enrollment.status !== previous ? statusNotifications[enrollment.status] : undefined;
}

/** The fields of the bank's record a notification carries: not the customer's account. */
export const notifiedEnrollment = (enrollment: Enrollment) => ({
  id: enrollment.id,
  external_id: enrollment.external_id,
  status: enrollment.status,
  device_id: enrollment.device_id,
  participant_id: enrollment.participant_id,
  expiration_datetime: enrollment.expiration_datetime,
  inserted_at: enrollment.inserted_at,
  updated_at: enrollment.updated_at,
});

/** An enrollment journey's notifications: what adopting the bank's record owes the merchant. */
export class EnrollmentNotifier extends JourneyNotifier {
  /** Emits the event adopting `journey`'s record, moved on from `previous`, owes, if any. */
  adopted(previous: EnrollmentStatus | undefined, journey: EnrollmentJourney): void {
    const type = enrollmentNotification(previous, journey);
    const { enrollment } = journey;
    if (type && enrollment)
      this.emit({ type: 'enrollment', id: enrollment.id }, type, notifiedEnrollment(enrollment));
  }
}

import { ApplicationFailure, condition } from '@temporalio/workflow';
import { isKnownPaymentStatus } from '../../bank/known-statuses.js';
import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import { failureTypes } from '../../contract/failure-types.js';
import { refused } from '../../contract/memo.js';
import type {
  AuthorizationResult,
  AuthorizeRequest,
  PaymentCreated,
  PaymentInput,
  PaymentJourney,
} from '../../contract/payment.js';
import type { PollTrigger } from '../../contract/task-queues.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { readBank } from '../shared/bank-reads.js';
import { EventInbox } from '../shared/event-inbox.js';
import { HintLedger } from '../shared/hint-ledger.js';
import { PollPace } from '../shared/poll-pace.js';
import { JourneyPublication } from '../shared/journey-publication.js';
import { refusal, requireAssertion, StartReply } from '../shared/merchant-requests.js';
import { paymentPolls } from './bank-calls.js';
import { CallWindows, unreachable } from './call-windows.js';
import { PaymentNotifier } from './notifications.js';
import { presentation } from './presentation.js';
import {
  awaitingCustomer,
  bankAnswered,
  consentRefusal,
  hintStillAhead,
  isFinal,
  note,
  startJourney,
  webhookHeard,
  type BankRecordSource,
} from './journey.js';

/** The status the merchant is shown: the bank's own, or `unknown` for one bankflow does not know. */
const shownStatus = (record: BiometricPayment) =>
  isKnownPaymentStatus(record.status) ? record.status : ('unknown' as const);

/** Workflow time, as the evidence notes it. */
export const now = () => new Date().toISOString();

/**
 * A running payment: the journey (journey.ts), what it answered its start, the webhook hints not yet asked
 * about, and what the merchant's requests and the receiver's webhooks do to it. workflow.ts tells the story.
 */
export class PaymentRun {
  readonly journey: PaymentJourney;
  readonly startReply: StartReply<PaymentCreated>;
  /** The webhooks that asked the workflow to read the bank (hint-ledger.ts). */
  readonly hints: HintLedger<ReceivedWebhook>;
  /** Whether an authorization is at the bank now: a second one is refused, and hints wait for its answer. */
  authorizing = false;
  /** The merchant's notifications of the states the journey adopts from the bank. */
  readonly notifier: PaymentNotifier;
  private readonly inbox: EventInbox;
  private readonly publication: JourneyPublication<PaymentJourney, PaymentCreated>;

  /** The windows the customer's bank calls end with. */
  readonly windows: CallWindows;
  /** How long the last poll waited for the poll budget, which stretches the next wait (poll-pace.ts). */
  readonly pace = new PollPace();

  constructor(readonly input: PaymentInput) {
    this.windows = new CallWindows(input);
    this.journey = input.resume?.journey ?? startJourney(input);
    this.notifier = new PaymentNotifier(() => this.journey);
    this.startReply = new StartReply(input.resume?.replies.start);
    this.inbox = new EventInbox(input.resume?.webhookKeys);
    this.hints = new HintLedger((event) => hintStillAhead(this.journey, event));
    this.publication = new JourneyPublication(this.journey, this.startReply, presentation(input));
  }

  get paymentId(): string {
    return this.journey.payment?.id ?? '';
  }

  /** The start's answer once there is one: the payment and its authorization options, or the refusal. */
  async startAnswer(): Promise<PaymentCreated> {
    await condition(() => this.startReply.given);
    return this.startReply.answer();
  }

  /** Refuses a request that needs the consent window open, e.g. `an authorization`, once it closed. */
  checkConsentOpen(what: string): void {
    const closed = consentRefusal(this.journey, what, Date.now());
    if (closed) throw refusal(closed);
  }

  checkAuthorization(request: AuthorizeRequest): void {
    requireAssertion(request);
    this.checkConsentOpen('an authorization');
    if (this.authorizing) throw refusal('an authorization is already in progress for this payment');
  }

  /** 8. Fresh authorization options from the bank, e.g. after the customer reloaded the page. */
  async authorizationOptions(): Promise<string> {
    const { bank } = this.windows.consent(this.journey);
    const options = await bank
      .getPaymentAuthorizationOptions(this.input.enrollmentId, this.paymentId)
      .catch((error: unknown) => {
        throw this.windows.closed(error) ? refusal(unreachable.consent) : error;
      });
    return options.public_key_encoded;
  }

  /** 9. The customer's assertion to the bank; a refusal is an answer the customer can retry. */
  async authorize(assertion: AuthorizeFidoAssertion): Promise<AuthorizationResult> {
    const { journey, input, paymentId } = this;
    this.authorizing = true;
    journey.state.authorizeAttempts++;
    const { bank } = this.windows.consent(journey);
    try {
      const authorized = await bank.authorizeBiometricPayment(input.enrollmentId, paymentId, {
        fido_assertion: assertion,
        riskSignals: null,
      });
      this.take(authorized, 'authorize');
      journey.authorizedAtBank = true;
      return { ok: true, status: shownStatus(authorized) };
    } catch (error) {
      // Nothing more is sent once the window closed; the bank's record, followed after it, tells the ending.
      if (this.windows.closed(error)) {
        note(journey, { source: 'authorize', status: 'unreachable', at: now(), detail: unreachable.consent });
        return { ok: false, status: 'unknown', reason: unreachable.consent };
      }
      const refused = bankRefusal(error, correctableRefusals);
      // A retried authorize whose first try reached the bank is refused as a repeat: the bank's own record
      // tells whether the payment went through; the customer waits on it, so it goes ahead of the timers'
      // polls.
      const current = await this.read('hint');
      if (current) this.take(current, 'poll');
      const status = current ? shownStatus(current) : 'unknown';
      if (!awaitingCustomer(journey)) return { ok: true, status };
      note(journey, { source: 'authorize', status: 'refused', at: now(), detail: refused.message });
      return { ok: false, status, reason: refused.message };
    } finally {
      this.authorizing = false;
      this.publish();
    }
  }

  /** 10. A webhook the receiver routed here: a hint to ask the bank, never the bank's word. */
  receive(event: ReceivedWebhook): void {
    if (this.inbox.isNew(event, this.journey.state) && webhookHeard(this.journey, event, now()))
      this.hints.heard(event);
    // What the merchant reads changes only with the bank's record; the details show the webhook at once.
    this.publication.details();
  }

  /**
   * What the next run carries on from this one. A hint not asked about yet needs no carrying: a continued run
   * reads the bank at once.
   */
  carry(): NonNullable<PaymentInput['resume']> {
    return { journey: this.journey, replies: this.startReply.kept(), webhookKeys: this.inbox.kept() };
  }

  /** Takes the bank's record; publishes a change, a final one together with the outcome. */
  take(record: BiometricPayment, source: BankRecordSource): void {
    if (this.adopt(record, source) && !isFinal(this.journey)) this.publish();
  }

  /**
   * Adopts the bank's record, notifying the merchant of the state it moved to; answers whether it changed.
   */
  adopt(record: BiometricPayment, source: BankRecordSource): boolean {
    const previous = this.journey.payment?.status;
    if (!bankAnswered(this.journey, record, source, now())) return false;
    this.notifier.adopted(previous, this.journey);
    return true;
  }

  /** Reads the bank's record of the payment, a webhook's read ahead of the timers'. */
  async poll(trigger: PollTrigger = 'timer'): Promise<void> {
    if (!this.journey.payment) return;
    this.journey.state.polls++;
    const record = await this.read(trigger);
    if (record) this.take(record, 'poll');
  }

  /**
   * The bank's record of the payment, or undefined when the read failed (shared/bank-reads.ts): the journey
   * then shows the trouble and asks again later. A 404 is one such answer: the bank created this payment, so
   * its reads lag its writes, or it lost the record, which support must see.
   */
  private read(trigger: PollTrigger): Promise<BiometricPayment | undefined> {
    const read = () => paymentPolls[trigger].getBiometricPayment(this.input.enrollmentId, this.paymentId);
    return readBank(
      this.journey.state,
      () => this.pace.measure(read),
      () => this.publish(),
    );
  }

  /** Answers the start, and shows the answer to callers at once. */
  answerStart(reply: Parameters<StartReply<PaymentCreated>['set']>[0]): void {
    this.startReply.set(reply);
    this.publication.toCallers();
  }

  publish(): void {
    this.publication.everywhere();
  }

  /**
   * Ends the journey as BankUnreachable when `error` is a start call given up with its window; else rethrows
   * it.
   */
  async unreachableOr(error: unknown): Promise<never> {
    if (this.windows.closed(error)) await this.fail(failureTypes.bankUnreachable, unreachable.start);
    throw error;
  }

  /** Ends the workflow as failed with `type`, the start answered with the same refusal. */
  async fail(type: string, message: string): Promise<never> {
    const failure = ApplicationFailure.create({ type, message, nonRetryable: true });
    this.answerStart(refused(message, type));
    this.journey.state.reason = message;
    this.publish();
    await this.notifier.runFinished();
    throw failure;
  }
}

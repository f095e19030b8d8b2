import { isKnownPaymentStatus } from '../../bank/vocabulary.js';
import type { BiometricPayment, BiometricPaymentStatus } from '../../bank/schemas/biometric-payment.js';
import type {
  PaymentInput,
  PaymentJourney,
  AuthorizationResult,
  AuthorizeRequest,
  PaymentCreated,
} from '../../contract/payment.js';
import type { ReceivedWebhook } from '../../contract/webhook-events.js';
import { troubleDetail, memoKeys, failureTypes, refused, EventInbox } from '../../contract/journeys.js';
import { bankTroubleValue, searchAttributes, type PollTrigger } from '../../contract/temporal.js';
import { formatReais } from '../../money.js';
import {
  type JourneyPresentation,
  JourneyNotifier,
  JourneyPublication,
  refusal,
  requireAssertion,
  StartReply,
} from '../shared/journey-run.js';
import type { NotificationType } from '../../contract/notifications.js';
import { paymentPolls, unreachable, CallWindows } from './bank-calls.js';
import { ApplicationFailure, condition } from '@temporalio/workflow';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import { bankRefusal, correctableRefusals, readBank, HintLedger, PollPace } from '../shared/follow-bank.js';
import {
  awaitingCustomer,
  adoptRecord,
  consentRefusal,
  hintStillAhead,
  isFinal,
  note,
  startJourney,
  webhookHeard,
  type BankRecordSource,
} from './journey.js';

// One payment run: `PaymentRun` holds the journey and its messages, reads the bank's record and writes to the
// bank within the customer's windows (bank-calls.ts), answers the merchant's updates, and publishes the
// journey and notifies the merchant of each state it adopts.

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
  /** The webhooks that asked the workflow to read the bank (shared/follow-bank.ts). */
  readonly hints: HintLedger<ReceivedWebhook>;
  /** Whether an authorization is at the bank now: a second one is refused, and hints wait for its answer. */
  authorizing = false;
  /** The merchant's notifications of the states the journey adopts from the bank. */
  readonly notifier: PaymentNotifier;
  private readonly inbox: EventInbox;
  private readonly publication: JourneyPublication<PaymentJourney, PaymentCreated>;

  /** The windows the customer's bank calls end with. */
  readonly windows: CallWindows;
  /** How long the last poll waited for the poll budget, which stretches the next wait (`PollPace`). */
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
  async awaitStartReply(): Promise<PaymentCreated> {
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
      this.adopt(authorized, 'authorize');
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
      if (current) this.adopt(current, 'poll');
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

  /**
   * Adopts the bank's record, notifying the merchant of the state it moved to, and publishes a change: a
   * final one later, together with the outcome, and none with `publish: false`, for a caller that publishes
   * it with something else.
   */
  adopt(record: BiometricPayment, source: BankRecordSource, { publish = true } = {}): void {
    const previous = this.journey.payment?.status;
    if (!adoptRecord(this.journey, record, source, now())) return;
    this.notifier.adopted(previous, this.journey);
    if (publish && !isFinal(this.journey)) this.publish();
  }

  /** Reads the bank's record of the payment, a webhook's read ahead of the timers'. */
  async poll(trigger: PollTrigger = 'timer'): Promise<void> {
    if (!this.journey.payment) return;
    this.journey.state.polls++;
    const record = await this.read(trigger);
    if (record) this.adopt(record, 'poll');
  }

  /**
   * The bank's record of the payment, or undefined when the read failed (shared/follow-bank.ts): the journey
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
  replyToStart(reply: Parameters<StartReply<PaymentCreated>['set']>[0]): void {
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
    this.replyToStart(refused(message, type));
    this.journey.state.reason = message;
    this.publish();
    await this.notifier.runFinished();
    throw failure;
  }
}

/** What a payment publishes: its state in the memo, its status and ids as search attributes, its details. */
export const presentation = (input: PaymentInput): JourneyPresentation<PaymentJourney> => ({
  memoEntries: ({ state }) => [{ key: memoKeys.state, value: state }],
  searchAttributes: ({ state }) => [
    { key: searchAttributes.status, value: state.phase },
    ...(state.paymentId ? [{ key: searchAttributes.paymentId, value: state.paymentId }] : []),
    ...(state.endToEndId ? [{ key: searchAttributes.endToEndId, value: state.endToEndId }] : []),
    { key: searchAttributes.bankTrouble, value: bankTroubleValue(state) },
  ],
  details: ({ state }) => [
    `**Pix ${formatReais(input.amountCents)}** — **${state.phase}**${state.unknownStatus ? ` (the bank shows ${state.unknownStatus})` : ''}`,
    ...(state.bankTrouble ? [troubleDetail(state.bankTrouble)] : []),
    `Payment ${state.paymentId ?? '(not created yet)'} on enrollment ${input.enrollmentId}`,
    state.endToEndId ? `End-to-end id ${state.endToEndId}` : 'End-to-end id not known yet',
    state.reason
      ? `Outcome: ${state.reason}`
      : `Consent window until ${state.consentDeadline ?? '(not started)'}`,
    `Authorize attempts: ${state.authorizeAttempts}; webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored); polls: ${state.polls}`,
  ],
});

/**
 * What each status tells the merchant: `created` and `awaiting_consent` both wait for the customer's
 * assertion.
 */
const statusNotifications: Partial<Record<BiometricPaymentStatus, NotificationType>> = {
  created: 'payment.awaiting_authorization',
  awaiting_consent: 'payment.awaiting_authorization',
  awaiting_payment: 'payment.authorized',
  settled: 'payment.settled',
  failed: 'payment.failed',
  rejected: 'payment.failed',
};

/**
 * The events the journey owes the merchant when it adopts the bank's record with status `next` after
 * `previous`: `payment.created` for the first record, then one each time it moves to a state the merchant
 * acts on.
 */
export function paymentNotifications(
  previous: BiometricPaymentStatus | undefined,
  { payment }: PaymentJourney,
): NotificationType[] {
  if (!payment) return [];
  const types: NotificationType[] = previous === undefined ? ['payment.created'] : [];
  const moved = statusNotifications[payment.status];
  if (moved && moved !== (previous && statusNotifications[previous])) types.push(moved);
  return types;
}

/** A payment journey's notifications: what adopting the bank's record owes the merchant. */
export class PaymentNotifier extends JourneyNotifier {
  /** Emits the events adopting `journey`'s record, moved on from `previous`, owes. */
  adopted(previous: BiometricPaymentStatus | undefined, journey: PaymentJourney): void {
    this.emitAll(journey.payment, paymentNotifications(previous, journey));
  }

  /**
   * Emits `payment.expired`: the journey stopped following before the bank's record showed a final status.
   */
  expired(journey: PaymentJourney): void {
    this.emitAll(journey.payment, ['payment.expired']);
  }

  private emitAll(payment: BiometricPayment | undefined, types: NotificationType[]): void {
    if (!payment) return;
    for (const type of types) this.emit({ type: 'payment', id: payment.id }, type, notifiedPayment(payment));
  }
}

/** The fields of the bank's record a notification carries: the bank's reference fields stay out. */
export const notifiedPayment = (payment: BiometricPayment) => ({
  id: payment.id,
  external_id: payment.external_id,
  status: payment.status,
  amount: payment.amount,
  description: payment.description,
  end_to_end_id: payment.end_to_end_id,
  transaction_date: payment.transaction_date,
  virtual_account_id: payment.virtual_account_id,
  inserted_at: payment.inserted_at,
  updated_at: payment.updated_at,
});

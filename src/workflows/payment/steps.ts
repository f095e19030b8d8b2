import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
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
  authorizationOptionsRequest,
  authorizationRequest,
  paymentCreatedUpdate,
  paymentStateQuery,
  paymentWebhookSignal,
  type AuthorizationResult,
  type PaymentInput,
  type PaymentJourney,
  type PaymentResult,
} from './definitions.js';
import {
  awaitingCustomer,
  bankAnswered,
  cashInHeard,
  conclude,
  consentRefusal,
  followPlan,
  isFinal,
  note,
  paymentResult,
  startJourney,
  webhookHeard,
  type BankRecordSource,
} from './machine.js';
import { paymentTimings } from './timings.js';

const bank =
  proxyActivities<
    Pick<
      Activities,
      'createBiometricPayment' | 'getPaymentAuthorizationOptions' | 'authorizeBiometricPayment'
    >
  >(bankCallOptions);
const bankReads =
  proxyActivities<Pick<Activities, 'listEnrollments' | 'getBiometricPayment'>>(bankReadOptions);

const temporal = proxyActivities<Pick<Activities, 'claimUnmatchedCashIns'>>(bankCallOptions);

const reais = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;

const now = () => new Date().toISOString();

/**
 * The steps of a payment journey that talk to the bank and to Temporal, and the handlers for what arrives while
 * they run. Every decision about what the bank's answers mean is the journey machine's (machine.ts).
 */
export class PaymentSteps {
  readonly journey: PaymentJourney;
  private readonly inbox = new EventInbox();
  private readonly replies: MerchantReplies;
  private readonly searchAttributesPublisher = new SearchAttributesPublisher();
  private readonly polling;
  /** Webhooks that asked the workflow to read the bank's record. */
  private hints = 0;
  private publicKeyEncoded: string | undefined;
  /** Why the start gets no authorization options, when it gets none. */
  private startRefusal: ApplicationFailure | undefined;
  private authorizing = false;

  constructor(private readonly input: PaymentInput) {
    this.journey = input.resume?.journey ?? startJourney(input);
    this.replies = new MerchantReplies(() => this.publishToCallers(), input.resume?.replies);
    this.polling = input.polling ?? defaultPolling;
    this.installHandlers();
  }

  // 1. Only an authorized enrollment can pay. The bank's reads may lag a moment behind an authorization the
  // merchant already heard of, so an enrollment still shown pending (or not yet listed) is read again briefly.
  async checkEnrollment(): Promise<void> {
    const { input } = this;
    let enrollment: Enrollment | undefined;
    for (let waitMs = paymentTimings.enrollmentRecheckMs; ; waitMs *= 2) {
      const enrollments = await bankReads.listEnrollments({ device_id: input.deviceId });
      enrollment = enrollments.data.find((candidate) => candidate.id === input.enrollmentId);
      if (enrollment?.status === 'authorized') return;
      const mayStillShow = !enrollment || enrollment.status.startsWith('awaiting_');
      if (!mayStillShow || waitMs > paymentTimings.enrollmentRecheckForMs) break;
      await sleep(waitMs);
    }
    await this.fail(
      'EnrollmentNotAuthorized',
      enrollment
        ? `enrollment ${input.enrollmentId} is ${enrollment.status}, not authorized: enroll the device again before paying`
        : `enrollment ${input.enrollmentId} does not exist for device ${input.deviceId}`,
    );
  }

  // 2. Create the payment and fetch its authorization options; the merchant gets both in one round trip.
  async createPayment(): Promise<void> {
    const { input, journey } = this;
    journey.state.phase = 'creating';
    try {
      this.take(
        await bank.createBiometricPayment(input.enrollmentId, {
          entity_id: input.entityId,
          virtual_account_id: input.virtualAccountId,
          amount: input.amountCents,
          description: input.description,
          external_id: input.externalId,
        }),
        'create',
      );
      if (!awaitingCustomer(journey)) return this.followExistingPayment();
      journey.state.consentDeadline = new Date(
        Date.now() + (input.consentWindowMs ?? paymentTimings.consentWindowMs),
      ).toISOString();
      this.publicKeyEncoded = (
        await bank.getPaymentAuthorizationOptions(input.enrollmentId, this.paymentId())
      ).public_key_encoded;
    } catch (error) {
      const refusal = bankRefusal(error, correctableRefusals);
      await this.fail('PaymentRefused', `the bank refused the payment: ${refusal.message}`);
    }
    const { payment } = journey;
    if (payment && this.publicKeyEncoded)
      this.replies.set(startReplyId, answered({ payment, publicKeyEncoded: this.publicKeyEncoded }));
    this.publish();
  }

  /**
   * The bank answered the create with a payment it already took consent for: a start repeated after the first
   * run's history was gone, the bank keeping one payment per external id. The start gets no options, and the
   * workflow follows that payment to its end.
   */
  private followExistingPayment(): void {
    const { payment } = this.journey;
    this.startRefusal = ApplicationFailure.create({
      type: 'PaymentAlreadyAuthorized',
      message: `the bank already has payment ${payment?.id ?? ''} for external id ${this.input.externalId}, ${payment?.status ?? ''}: wait for its result`,
    });
    this.replies.set(startReplyId, refused(this.startRefusal.message, 'PaymentAlreadyAuthorized'));
    this.publish();
  }

  // 3. Wait for the customer's assertion until the consent window closes.
  async waitForConsent(): Promise<void> {
    await followBank({
      done: () => !awaitingCustomer(this.journey),
      deadline: Date.parse(this.journey.state.consentDeadline ?? ''),
      poll: () => this.poll(),
      polling: this.polling,
      hints: () => this.hints + this.journey.state.authorizeAttempts,
    });
    await condition(() => !this.authorizing);
  }

  /**
   * 4. Follow the bank until its record shows a final status. A payment the customer never authorized is expected
   * to be rejected as its window closes, so the bank is asked soon and for a shorter while; one in processing is
   * followed for days, often at first and then sparingly, continuing as new to keep each run's history bounded.
   */
  async followUntilFinal(): Promise<void> {
    const { journey } = this;
    // A run continued from the previous one asks at once: a hint the previous run heard last may be unanswered.
    if (this.input.resume) await this.poll();
    for (;;) {
      const plan = followPlan(journey, Date.now());
      if (!plan) return;
      const end = await followBank({
        done: () => isFinal(journey) || awaitingCustomer(journey) !== plan.awaitingCustomer,
        deadline: plan.until,
        poll: () => this.poll(),
        polling: plan.frequent ? this.polling : paymentTimings.sparsePolling,
        hints: () => this.hints,
        historyBound: paymentTimings.historyBound - paymentTimings.historyHeadroom,
      });
      if (end === 'history-full') await this.continueAsNew();
    }
  }

  // 5. A settlement is confirmed by the bank's GET; the Pix cash-in for its end-to-end id is kept as evidence.
  async awaitCashIn(): Promise<void> {
    const { journey } = this;
    if (journey.payment?.status !== 'settled') return;
    // The cash-in usually follows the settlement within a moment; only a late one is looked for among the events
    // the receiver could not match, and once more before the bank's GET is taken as the only evidence.
    const waitMs = this.input.cashInWaitMs ?? paymentTimings.cashInWaitMs;
    const graceMs = Math.min(waitMs, paymentTimings.cashInGraceMs);
    const heard =
      (await this.waitForCashIn(graceMs)) ||
      (await this.claimCashIns()) ||
      (await this.waitForCashIn(waitMs - graceMs)) ||
      (await this.claimCashIns());
    if (!heard) {
      note(journey, {
        source: 'poll',
        status: 'settled',
        at: now(),
        detail: "no Pix cash-in event arrived; the bank's GET confirms the settlement",
      });
    }
  }

  /** 6. The result is what the bank's own record shows. */
  async finish(): Promise<PaymentResult> {
    const result = paymentResult(this.journey, Date.now());
    conclude(this.journey, result);
    this.publish();
    await condition(allHandlersFinished);
    return result;
  }

  private paymentId(): string {
    return this.journey.payment?.id ?? '';
  }

  /** Takes the bank's own record; publishes only when it changed the journey. */
  private take(record: BiometricPayment, source: BankRecordSource): boolean {
    const changed = bankAnswered(this.journey, record, source, now());
    if (changed) this.publish();
    return changed;
  }

  private async poll(): Promise<void> {
    if (!this.journey.payment) return;
    this.journey.state.polls++;
    try {
      this.take(await bankReads.getBiometricPayment(this.input.enrollmentId, this.paymentId()), 'poll');
    } catch (error) {
      // The bank created this payment, so a 404 means its reads lag its writes: no news yet, ask again later.
      bankRefusal(error, ['BankNotFound']);
    }
  }

  private receive(event: ReceivedWebhook): void {
    if (
      this.inbox.isNew(event, this.journey.state) &&
      webhookHeard(this.journey, event, now()) === 'ask-bank'
    )
      this.hints++;
    this.publish();
  }

  private readonly waitForCashIn = async (ms: number) =>
    cashInHeard(this.journey) || (ms > 0 && condition(() => cashInHeard(this.journey), ms));

  /**
   * Takes the Pix cash-in events the receiver kept as unmatched because they came before this payment's end-to-end
   * id was searchable. Answers whether the cash-in is now heard.
   */
  private async claimCashIns(): Promise<boolean> {
    const endToEndId = this.journey.payment?.end_to_end_id;
    if (!cashInHeard(this.journey) && endToEndId) {
      for (const event of await temporal.claimUnmatchedCashIns(endToEndId, workflowInfo().workflowId))
        this.receive(event);
    }
    return cashInHeard(this.journey);
  }

  private continueAsNew(): Promise<never> {
    return continueJourneyAsNew(this.input, { journey: this.journey, replies: this.replies.all() });
  }

  private async fail(type: string, message: string): Promise<never> {
    const failure = ApplicationFailure.create({ type, message, nonRetryable: true });
    this.startRefusal = failure;
    this.replies.set(startReplyId, refused(message, type));
    this.journey.state.reason = message;
    this.publish();
    await condition(allHandlersFinished);
    throw failure;
  }

  /** What the merchant reads (starter/published.ts). */
  private publishToCallers(): void {
    publishToMemo([{ key: memoKeys.state, value: this.journey.state }, this.replies.memoEntry()]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  private publish(): void {
    const { state } = this.journey;
    this.publishToCallers();
    this.searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.phase },
      ...(state.paymentId ? [{ key: searchAttributes.paymentId, value: state.paymentId }] : []),
      ...(state.endToEndId ? [{ key: searchAttributes.endToEndId, value: state.endToEndId }] : []),
    ]);
    setCurrentDetails(
      [
        `**Pix ${reais(this.input.amountCents)}** — **${state.phase}**`,
        `Payment ${state.paymentId ?? '(not created yet)'} on enrollment ${this.input.enrollmentId}`,
        state.endToEndId ? `End-to-end id ${state.endToEndId}` : 'End-to-end id not known yet',
        state.reason
          ? `Outcome: ${state.reason}`
          : `Consent window until ${state.consentDeadline ?? '(not started)'}`,
        `Authorize attempts: ${state.authorizeAttempts}; webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored); polls: ${state.polls}`,
      ].join('\n\n'),
    );
  }

  private installHandlers(): void {
    setHandler(paymentStateQuery, () => this.journey.state);
    setHandler(paymentWebhookSignal, (event) => this.receive(event));
    setHandler(paymentCreatedUpdate, async () => {
      await condition(() => this.publicKeyEncoded !== undefined || this.startRefusal !== undefined);
      const { payment } = this.journey;
      if (this.startRefusal || !payment || !this.publicKeyEncoded) throw this.startRefusal;
      return { payment, publicKeyEncoded: this.publicKeyEncoded };
    });
    setHandler(authorizationOptionsRequest.signal, ({ requestId }) =>
      this.replies.answer(requestId, async () => {
        const closed = consentRefusal(this.journey, 'authorization options', Date.now());
        if (closed) return refused(closed);
        const options = await bank.getPaymentAuthorizationOptions(this.input.enrollmentId, this.paymentId());
        this.publicKeyEncoded = options.public_key_encoded;
        return answered(this.publicKeyEncoded);
      }),
    );
    setHandler(authorizationRequest.signal, ({ requestId, assertion }) =>
      this.replies.answer(requestId, async () => {
        const closed = consentRefusal(this.journey, 'an authorization', Date.now());
        if (closed) return refused(closed);
        if (this.authorizing) return refused('an authorization is already in progress for this payment');
        return this.authorize(assertion);
      }),
    );
  }

  private async authorize(assertion: AuthorizeFidoAssertion) {
    const { journey, input } = this;
    this.authorizing = true;
    journey.state.authorizeAttempts++;
    try {
      const authorized = await bank.authorizeBiometricPayment(input.enrollmentId, this.paymentId(), {
        fido_assertion: assertion,
        riskSignals: null,
      });
      this.take(authorized, 'authorize');
      journey.authorizedAtBank = true;
      return answered<AuthorizationResult>({ ok: true, status: authorized.status });
    } catch (error) {
      const refusal = bankRefusal(error, correctableRefusals);
      // A retried authorize whose first try reached the bank is refused as a repeat: the bank's own record tells
      // whether the payment went through.
      const current = await bankReads.getBiometricPayment(input.enrollmentId, this.paymentId());
      this.take(current, 'poll');
      if (!awaitingCustomer(journey))
        return answered<AuthorizationResult>({ ok: true, status: current.status });
      note(journey, {
        source: 'authorize',
        status: 'refused',
        at: now(),
        detail: refusal.message,
      });
      return answered<AuthorizationResult>({ ok: false, status: current.status, reason: refusal.message });
    } finally {
      this.authorizing = false;
      this.publish();
    }
  }
}

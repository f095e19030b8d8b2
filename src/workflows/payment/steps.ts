import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import { formatReais } from '../../money.js';
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
  AuthorizationResult,
  PaymentCreated,
  PaymentInput,
  PaymentJourney,
  PaymentResult,
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
import { installPaymentHandlers } from './requests.js';
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

const now = () => new Date().toISOString();

/**
 * The steps of a payment journey that talk to the bank and to Temporal, and the handlers for what arrives while
 * they run. Every decision about what the bank's answers mean is the journey machine's (machine.ts).
 */
export class PaymentSteps extends JourneySteps<PaymentJourney, PaymentCreated> {
  private readonly polling;
  /** Whether an authorization is at the bank now: a second one waits for its answer or is refused. */
  authorizing = false;

  constructor(private readonly input: PaymentInput) {
    super(input.resume?.journey ?? startJourney(input), input.resume?.replies);
    this.polling = input.polling ?? defaultPolling;
    installPaymentHandlers(this);
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
      const options = await bank.getPaymentAuthorizationOptions(input.enrollmentId, this.paymentId());
      const { payment } = journey;
      if (payment)
        this.replies.answerStart(answered({ payment, publicKeyEncoded: options.public_key_encoded }));
    } catch (error) {
      const refused = bankRefusal(error, correctableRefusals);
      await this.fail('PaymentRefused', `the bank refused the payment: ${refused.message}`);
    }
    this.publish();
  }

  /**
   * The bank answered the create with a payment it already took consent for: a start repeated after the first
   * run's history was gone, the bank keeping one payment per external id. The start gets no options, and the
   * workflow follows that payment to its end.
   */
  private followExistingPayment(): void {
    const { payment } = this.journey;
    this.replies.answerStart(
      refused(
        `the bank already has payment ${payment?.id ?? ''} for external id ${this.input.externalId}, ${payment?.status ?? ''}: wait for its result`,
        'PaymentAlreadyAuthorized',
      ),
    );
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
    this.replies.answerStart(refused(message, type));
    this.journey.state.reason = message;
    this.publish();
    await condition(allHandlersFinished);
    throw failure;
  }

  protected memoEntries(): MemoEntry[] {
    return [{ key: memoKeys.state, value: this.journey.state }];
  }

  protected searchAttributeValues(): KeywordValue[] {
    const { state } = this.journey;
    return [
      { key: searchAttributes.status, value: state.phase },
      ...(state.paymentId ? [{ key: searchAttributes.paymentId, value: state.paymentId }] : []),
      ...(state.endToEndId ? [{ key: searchAttributes.endToEndId, value: state.endToEndId }] : []),
    ];
  }

  protected details(): string[] {
    const { state } = this.journey;
    return [
      `**Pix ${formatReais(this.input.amountCents)}** — **${state.phase}**`,
      `Payment ${state.paymentId ?? '(not created yet)'} on enrollment ${this.input.enrollmentId}`,
      state.endToEndId ? `End-to-end id ${state.endToEndId}` : 'End-to-end id not known yet',
      state.reason
        ? `Outcome: ${state.reason}`
        : `Consent window until ${state.consentDeadline ?? '(not started)'}`,
      `Authorize attempts: ${state.authorizeAttempts}; webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored); polls: ${state.polls}`,
    ];
  }

  /** Refuses a request that needs the consent window open, e.g. `an authorization`, once it closed. */
  checkConsentOpen(what: string): void {
    const closed = consentRefusal(this.journey, what, Date.now());
    if (closed) throw refusal(closed);
  }

  /** Fresh authorization options from the bank. */
  async authorizationOptions(): Promise<string> {
    return (await bank.getPaymentAuthorizationOptions(this.input.enrollmentId, this.paymentId()))
      .public_key_encoded;
  }

  /** Takes a webhook the receiver routed here. */
  receive(event: ReceivedWebhook): void {
    if (
      this.inbox.isNew(event, this.journey.state) &&
      webhookHeard(this.journey, event, now()) === 'ask-bank'
    )
      this.hints++;
    this.publish();
  }

  /** Step 4: the customer's assertion to the bank; a refusal is an answer the customer can retry. */
  async authorize(assertion: AuthorizeFidoAssertion): Promise<AuthorizationResult> {
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
      return { ok: true, status: authorized.status };
    } catch (error) {
      const refused = bankRefusal(error, correctableRefusals);
      // A retried authorize whose first try reached the bank is refused as a repeat: the bank's own record tells
      // whether the payment went through.
      const current = await bankReads.getBiometricPayment(input.enrollmentId, this.paymentId());
      this.take(current, 'poll');
      if (!awaitingCustomer(journey)) return { ok: true, status: current.status };
      note(journey, {
        source: 'authorize',
        status: 'refused',
        at: now(),
        detail: refused.message,
      });
      return { ok: false, status: current.status, reason: refused.message };
    } finally {
      this.authorizing = false;
      this.publish();
    }
  }
}

import { allHandlersFinished, ApplicationFailure, condition } from '@temporalio/workflow';
import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { continueJourneyAsNew } from '../shared/continue-as-new.js';
import { JourneySteps } from '../shared/journey-steps.js';
import { answered, refused } from '../shared/merchant-requests.js';
import { PollTimer } from '../shared/poll-timer.js';
import { defaultPolling, followBank } from '../shared/polling.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import { PaymentAuthorization } from './authorization.js';
import { bank, bankReads, createRequest, now } from './bank-calls.js';
import { awaitCashIn } from './cash-in.js';
import type { PaymentCreated, PaymentInput, PaymentJourney, PaymentResult } from './definitions.js';
import { enrollmentRefusal } from './enrollment-check.js';
import { openConsentWindow } from './journey.js';
import {
  awaitingCustomer,
  bankAnswered,
  conclude,
  followPlan,
  paymentHints,
  isFinal,
  paymentResult,
  startJourney,
  webhookHeard,
  type BankRecordSource,
} from './machine.js';
import { paymentPresentation } from './presentation.js';
import { installPaymentHandlers } from './requests.js';
import { paymentTimings } from './timings.js';
import { failureTypes } from '../failure-types.js';

/**
 * The steps of a payment journey that talk to the bank and to Temporal, and the handlers for what arrives while
 * they run. Every decision about what the bank's answers mean is the journey machine's (machine.ts).
 */
export class PaymentSteps extends JourneySteps<PaymentJourney, PaymentCreated> {
  private readonly polling;
  private readonly pollTimer;
  private readonly hints;
  readonly authorization = new PaymentAuthorization(this);

  constructor(readonly input: PaymentInput) {
    const journey = input.resume?.journey ?? startJourney(input);
    super(journey, input.resume?.replies, paymentPresentation(input));
    this.polling = input.polling ?? defaultPolling;
    this.pollTimer = new PollTimer();
    this.hints = paymentHints(journey);
    installPaymentHandlers(this);
  }

  // 1. Only an authorized enrollment can pay.
  async checkEnrollment(): Promise<void> {
    const refusal = await enrollmentRefusal(this.input);
    if (refusal) await this.fail(failureTypes.enrollmentNotAuthorized, refusal);
  }

  // 2. Create the payment and fetch its authorization options; the merchant gets both in one round trip.
  async createPayment(): Promise<void> {
    const { input, journey } = this;
    journey.state.phase = 'creating';
    try {
      const created = await bank.createBiometricPayment(input.enrollmentId, createRequest(input));
      // The new payment is published with the start's answer, in one memo change.
      bankAnswered(journey, created, 'create', now());
      if (!awaitingCustomer(journey)) return this.followExistingPayment();
      openConsentWindow(journey, input.consentWindowMs);
      const options = await bank.getPaymentAuthorizationOptions(input.enrollmentId, this.paymentId());
      const { payment } = journey;
      if (payment)
        this.replies.answerStart(answered({ payment, publicKeyEncoded: options.public_key_encoded }));
    } catch (error) {
      const refused = bankRefusal(error, correctableRefusals);
      await this.fail(failureTypes.paymentRefused, `the bank refused the payment: ${refused.message}`);
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
      hints: this.hints.forWait(() => this.authorization.authorizing),
      timer: this.pollTimer,
    });
    await condition(() => !this.authorization.authorizing);
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
        hints: this.hints.forWait(),
        timer: this.pollTimer,
        historyBound: paymentTimings.historyBound - paymentTimings.historyHeadroom,
      });
      if (end === 'history-full')
        await continueJourneyAsNew(this.input, { journey, replies: this.replies.all() });
    }
  }

  // 5. A settlement is confirmed by the bank's GET; the Pix cash-in for its end-to-end id is kept as evidence.
  async awaitCashIn(): Promise<void> {
    await awaitCashIn(
      this.journey,
      this.input.cashInWaitMs,
      (event) => this.receive(event),
      () => this.publish(),
    );
  }

  /** 6. The result is what the bank's own record shows. */
  async finish(): Promise<PaymentResult> {
    const result = paymentResult(this.journey, Date.now());
    conclude(this.journey, result);
    this.publish();
    await condition(allHandlersFinished);
    return result;
  }

  paymentId(): string {
    return this.journey.payment?.id ?? '';
  }

  /** Takes the bank's record; publishes a change, a final one together with the outcome. */
  take(record: BiometricPayment, source: BankRecordSource): void {
    if (!bankAnswered(this.journey, record, source, now())) return;
    if (!isFinal(this.journey)) this.publish();
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

  private async fail(type: string, message: string): Promise<never> {
    const failure = ApplicationFailure.create({ type, message, nonRetryable: true });
    this.replies.answerStart(refused(message, type));
    this.journey.state.reason = message;
    this.publish();
    await condition(allHandlersFinished);
    throw failure;
  }

  /** Takes a webhook the receiver routed here. */
  receive(event: ReceivedWebhook): void {
    const isNew = this.inbox.isNew(event, this.journey.state);
    if (isNew && webhookHeard(this.journey, event, now()) === 'ask-bank') this.hints.heard(event);
    // What the merchant reads changes only with the bank's record; the details show the webhook at once.
    this.showDetails();
  }
}

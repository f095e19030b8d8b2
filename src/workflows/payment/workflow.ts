import { condition, setHandler, workflowInfo } from '@temporalio/workflow';
import { failureTypes, answered, refused } from '../../contract/journeys.js';
import { paymentTimings, type PaymentInput, type PaymentResult } from '../../contract/payment.js';
import {
  authorizationOptionsUpdate,
  authorizeUpdate,
  paymentCreatedUpdate,
  paymentWebhookSignal,
} from '../../contract/temporal.js';
import {
  bankRefusal,
  correctableRefusals,
  PollTimer,
  defaultPolling,
  followBank,
} from '../shared/follow-bank.js';
import { continueJourneyAsNew, checkStartTerms } from '../shared/journey-run.js';
import { now, PaymentRun } from './run.js';
import { createRequest, enrollmentRefusal, temporal, unreachable } from './bank-calls.js';
import {
  awaitingCustomer,
  cashInHeard,
  conclude,
  followPlan,
  isFinal,
  note,
  openConsentWindow,
} from './journey.js';

/**
 * A Pix payment authorized with a FIDO assertion, steps 7-10 of the bank's biometric flow: check the
 * enrollment, create the payment and hand its authorization options to the merchant at once, take the
 * customer's assertion (retryable until the consent window closes), then follow the bank until its own record
 * shows the payment final — and, for a settlement, hear the Pix cash-in event for the same end-to-end id.
 * Webhooks only make the workflow ask the bank sooner; a run continued as new picks the story up at step 10.
 */
export async function biometricPaymentWorkflow(input: PaymentInput): Promise<PaymentResult> {
  const payment = new PaymentRun(input);
  setHandler(paymentWebhookSignal, (event) => payment.receive(event));
  setHandler(paymentCreatedUpdate, () => payment.awaitStartReply(), {
    validator: (terms) => checkStartTerms(terms),
  });
  setHandler(authorizationOptionsUpdate, () => payment.authorizationOptions(), {
    validator: () => payment.checkConsentOpen('authorization options'),
  });
  setHandler(authorizeUpdate, (request) => payment.authorize(request.assertion), {
    validator: (request) => payment.checkAuthorization(request),
  });

  // One poll timer for the whole run: starting and cancelling a timer are an event each (`PollTimer`).
  const timer = new PollTimer(payment.pace);
  if (!input.resume) {
    const refusal = await enrollmentRefusal(input, payment.windows.start()).catch((error: unknown) =>
      payment.unreachableOr(error),
    );
    if (refusal) await payment.fail(failureTypes.enrollmentNotAuthorized, refusal);
    await createPayment(payment);
  } else {
    // A run continued from the previous one asks at once: a hint the previous run heard last may be
    // unanswered.
    await payment.poll();
  }
  await waitForConsent(payment, timer);
  await followUntilFinal(payment, timer);
  await awaitCashIn(payment);

  const result = conclude(payment.journey, Date.now());
  if (result.outcome === 'expired') payment.notifier.expired(payment.journey);
  payment.publish();
  await payment.notifier.runFinished();
  return result;
}

/** 7-8. Create the payment and fetch its authorization options; the merchant gets both in one round trip. */
async function createPayment(payment: PaymentRun): Promise<void> {
  const { input, journey } = payment;
  journey.state.phase = 'creating';
  const { bank } = payment.windows.start();
  try {
    const created = await bank.createBiometricPayment(input.enrollmentId, createRequest(input));
    // The new payment is published with the start's answer, in one memo change.
    payment.adopt(created, 'create', { publish: false });
    const { payment: record } = journey;
    if (!record || !awaitingCustomer(journey)) {
      // The bank already took consent for this external id (a start repeated after the first run's history
      // was gone): the start gets no options, and the workflow follows that payment to its end.
      const reason = `the bank already has payment ${record?.id ?? ''} for external id ${input.externalId}, ${record?.status ?? ''}: wait for its result`;
      payment.replyToStart(refused(reason, 'PaymentAlreadyAuthorized'));
      payment.publish();
      return;
    }
    openConsentWindow(journey, Date.now(), input.consentWindowMs);
    const options = await bank.getPaymentAuthorizationOptions(input.enrollmentId, payment.paymentId);
    payment.replyToStart(answered({ payment: record, publicKeyEncoded: options.public_key_encoded }));
  } catch (error) {
    if (payment.windows.closed(error)) {
      if (!journey.payment) await payment.unreachableOr(error);
      // The payment exists but its options never came: the customer cannot consent, and the bank's record,
      // followed as usual, tells how the payment it holds ends.
      payment.replyToStart(refused(unreachable.start, failureTypes.bankUnreachable));
    } else {
      const refusal = bankRefusal(error, correctableRefusals);
      await payment.fail(failureTypes.paymentRefused, `the bank refused the payment: ${refusal.message}`);
    }
  }
  payment.publish();
}

/**
 * 9. Wait for the customer's assertion (an update) until the consent window closes. However many requests
 *    arrive meanwhile, the run continues as new before its history reaches its bound, and the next run waits
 *    out the same window.
 */
async function waitForConsent(payment: PaymentRun, timer: PollTimer): Promise<void> {
  const { journey, input } = payment;
  const deadline = Date.parse(journey.state.consentDeadline ?? '');
  // A continued run past the consent is followed as usual.
  if (!awaitingCustomer(journey) || !(Date.now() < deadline)) return;
  const end = await followBank({
    done: () => !awaitingCustomer(journey),
    deadline,
    poll: (trigger) => payment.poll(trigger),
    polling: input.polling ?? defaultPolling,
    hints: payment.hints.forWait(() => payment.authorizing),
    timer,
    historyBound: paymentTimings.historyBound - paymentTimings.historyHeadroom,
    trouble: {
      active: () => journey.state.bankTrouble !== undefined,
      polling: input.polling ?? defaultPolling,
    },
  });
  if (end === 'history-full')
    await continueJourneyAsNew(input, () => payment.carry(), payment.notifier, 'same');
  await condition(() => !payment.authorizing);
}

/**
 * 10. Follow the bank until its record shows a final status. A payment the customer never authorized is
 *     expected to be rejected as its window closes, so the bank is asked soon and for a shorter while; one in
 *     processing is followed for days, often at first and then sparingly, continuing as new to keep each
 *     run's history bounded.
 */
async function followUntilFinal(payment: PaymentRun, timer: PollTimer): Promise<void> {
  const { journey, input } = payment;
  const trouble = {
    active: () => journey.state.bankTrouble !== undefined,
    polling: input.polling ?? defaultPolling,
  };
  for (;;) {
    const plan = followPlan(journey, Date.now());
    // Past the follow's end while the bank's reads fail, the bank's record, once read, says how the payment
    // ends.
    if (!plan && !trouble.active()) return;
    const end = await followBank({
      done: plan
        ? () => isFinal(journey) || awaitingCustomer(journey) !== plan.awaitingCustomer
        : () => !trouble.active(),
      deadline: plan?.until ?? Infinity,
      poll: (trigger) => payment.poll(trigger),
      polling: !plan || plan.frequent ? (input.polling ?? defaultPolling) : paymentTimings.sparsePolling,
      hints: payment.hints.forWait(),
      timer,
      historyBound: paymentTimings.historyBound - paymentTimings.historyHeadroom,
      trouble,
    });
    if (end === 'history-full')
      await continueJourneyAsNew(input, () => payment.carry(), payment.notifier, 'same');
  }
}

/**
 * 10. A settlement is confirmed by the bank's GET; the Pix cash-in for its end-to-end id is kept as evidence.
 *     The payment claims the cash-ins held for the end-to-end id the GET shows (the receiver holds every Pix
 *     cash-in in the workflow named by its end-to-end id, and the claim makes that holder signal this payment
 *     what it holds and whatever comes later), and waits a moment for one before the bank's GET is taken as
 *     the only evidence.
 */
async function awaitCashIn(payment: PaymentRun): Promise<void> {
  const { journey, input } = payment;
  if (journey.payment?.status !== 'settled') return;
  if (!cashInHeard(journey)) payment.publish();
  const endToEndId = journey.payment.end_to_end_id;
  if (!cashInHeard(journey) && endToEndId) {
    for (const event of await temporal.claimCashIns(endToEndId, workflowInfo().workflowId))
      payment.receive(event);
  }
  const waitMs = input.cashInWaitMs ?? paymentTimings.cashInWaitMs;
  const heard = cashInHeard(journey) || (waitMs > 0 && (await condition(() => cashInHeard(journey), waitMs)));
  if (!heard) {
    const detail = "no Pix cash-in event arrived; the bank's GET confirms the settlement";
    note(journey, { source: 'poll', status: 'settled', at: now(), detail });
  }
}

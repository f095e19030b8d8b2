import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { BiometricPayment } from '../../bank/schemas/biometric-payment.js';
import { webhookCategories } from '../../bank/webhook-categories.js';
import { bankCallOptions } from '../activity-options.js';
import { searchAttributes } from '../search-attributes.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { EventInbox } from '../shared/event-inbox.js';
import { answered, MerchantReplies, refused, startReplyId } from '../shared/merchant-requests.js';
import { defaultPolling, waitWithPolling } from '../shared/polling.js';
import { memoKeys, publishToMemo } from '../shared/published-memo.js';
import { SearchAttributesPublisher } from '../shared/search-attributes-publisher.js';
import type { ReceivedWebhook } from '../webhook-events.js';
import {
  authorizationOptionsRequest,
  authorizationRequest,
  initialPaymentState,
  paymentCreatedUpdate,
  paymentStateQuery,
  paymentWebhookSignal,
  type AuthorizationResult,
  type PaymentEvidence,
  type PaymentInput,
  type PaymentOutcome,
  type PaymentResult,
  type PaymentState,
} from './definitions.js';
import { isFinalPaymentStatus, movesForward } from './status.js';

const bank =
  proxyActivities<
    Pick<
      Activities,
      | 'listEnrollments'
      | 'createBiometricPayment'
      | 'getBiometricPayment'
      | 'getPaymentAuthorizationOptions'
      | 'authorizeBiometricPayment'
    >
  >(bankCallOptions);

const temporal = proxyActivities<Pick<Activities, 'claimUnmatchedCashIns'>>(bankCallOptions);

const reais = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;

/** How long a settled payment waits for its Pix cash-in event before looking among the unmatched events. */
const cashInGraceMs = 2_000;

/** How long the workflow follows a payment the bank is still processing before it stops waiting. */
const processingDeadlineMs = 7 * 24 * 60 * 60_000;

/**
 * A Pix payment authorized with a FIDO assertion, steps 7-10 of the bank's biometric flow: check the enrollment,
 * create the payment and hand its authorization options to the merchant at once, take the customer's assertion
 * (retryable until the consent window closes), then follow the bank until the payment is final and confirmed
 * with a GET — and, for a settlement, by the Pix cash-in event for the same end-to-end id.
 */
export async function biometricPaymentWorkflow(input: PaymentInput): Promise<PaymentResult> {
  const polling = input.polling ?? defaultPolling;
  const inbox = new EventInbox();
  const state: PaymentState = initialPaymentState(input);
  let payment: BiometricPayment | undefined;
  let publicKeyEncoded: string | undefined;
  let authorizing = false;
  /** Whether the bank ever took the customer's assertion; a payment ending without it was never consented. */
  let authorizedAtBank = false;
  const cashInEndToEndIds = new Set<string>();
  const cashInConfirmed = () => Boolean(state.endToEndId && cashInEndToEndIds.has(state.endToEndId));
  let failure: ApplicationFailure | undefined;
  const replies = new MerchantReplies(publishToCallers);
  const searchAttributesPublisher = new SearchAttributesPublisher();

  const note = (source: PaymentEvidence['source'], status: string, detail?: string) =>
    state.evidence.push({ source, status, at: new Date().toISOString(), ...(detail ? { detail } : {}) });

  /**
   * Applies what the bank says about the payment; stale and repeated news changes nothing. Answers whether the
   * payment moved forward.
   */
  function apply(latest: BiometricPayment, source: PaymentEvidence['source']): boolean {
    if (payment && latest.id !== payment.id) return false;
    if (payment && !movesForward(payment.status, latest.status)) {
      payment = { ...payment, end_to_end_id: payment.end_to_end_id ?? latest.end_to_end_id };
      return false;
    }
    payment = latest;
    note(source, latest.status);
    state.paymentId = latest.id;
    state.endToEndId = latest.end_to_end_id;
    state.transactionDate = latest.transaction_date;
    if (latest.status !== 'pending') state.phase = latest.status;
    if (latest.status === 'awaiting_payment' || latest.status === 'settled') authorizedAtBank = true;
    publish();
    return true;
  }

  /** What the merchant reads (starter/published.ts). */
  function publishToCallers(): void {
    publishToMemo([{ key: memoKeys.state, value: state }, replies.memoEntry()]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  function publish(): void {
    publishToCallers();
    searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.phase },
      ...(state.paymentId ? [{ key: searchAttributes.paymentId, value: state.paymentId }] : []),
      ...(state.endToEndId ? [{ key: searchAttributes.endToEndId, value: state.endToEndId }] : []),
    ]);
    setCurrentDetails(
      [
        `**Pix ${reais(input.amountCents)}** — **${state.phase}**`,
        `Payment ${state.paymentId ?? '(not created yet)'} on enrollment ${input.enrollmentId}`,
        state.endToEndId ? `End-to-end id ${state.endToEndId}` : 'End-to-end id not known yet',
        state.reason
          ? `Outcome: ${state.reason}`
          : `Consent window until ${state.consentDeadline ?? '(not started)'}`,
        `Authorize attempts: ${state.authorizeAttempts}; webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored); polls: ${state.polls}`,
      ].join('\n\n'),
    );
  }

  function takeWebhooks(): void {
    for (const { envelope, resource } of inbox.drain()) {
      if (envelope.category === webhookCategories.collectingDocument) {
        if (resource?.kind === 'cash-in' && resource.data.status === 'settled') {
          cashInEndToEndIds.add(resource.data.end_to_end_id);
          note(
            'cash-in webhook',
            'settled',
            `Pix cash-in ${resource.data.id} for ${resource.data.end_to_end_id}`,
          );
        }
        continue;
      }
      if (resource?.kind !== 'payment')
        note('webhook', envelope.type, 'ignored: the event data is not a payment');
      else if (resource.data.id === state.paymentId) apply(resource.data, 'webhook');
    }
  }

  async function poll(): Promise<void> {
    if (!payment) return;
    state.polls++;
    apply(await bank.getBiometricPayment(input.enrollmentId, payment.id), 'poll');
    takeWebhooks();
    publishToCallers();
  }

  /**
   * Takes the Pix cash-in events the receiver kept as unmatched because they came before this payment's end-to-end
   * id was searchable. Answers whether the cash-in is now confirmed.
   */
  async function claimCashIns(): Promise<boolean> {
    if (!cashInConfirmed() && state.endToEndId) {
      for (const event of await temporal.claimUnmatchedCashIns(state.endToEndId, workflowInfo().workflowId))
        receive(event);
    }
    return cashInConfirmed();
  }

  // `condition` with a zero timeout would record a patch marker and a timer for nothing.
  const waitForCashIn = async (ms: number) => cashInConfirmed() || (ms > 0 && condition(cashInConfirmed, ms));

  const isFinal = () => payment !== undefined && isFinalPaymentStatus(payment.status);
  const consentClosed = () =>
    state.consentDeadline !== undefined && Date.now() >= Date.parse(state.consentDeadline);

  setHandler(paymentStateQuery, () => state);
  function receive(event: ReceivedWebhook): void {
    if (inbox.accept(event)) state.webhooksReceived++;
    else state.duplicateWebhooks++;
    if (payment) takeWebhooks();
    publishToCallers();
  }
  setHandler(paymentWebhookSignal, receive);
  setHandler(paymentCreatedUpdate, async () => {
    await condition(() => publicKeyEncoded !== undefined || failure !== undefined);
    if (failure || !payment || !publicKeyEncoded) throw failure;
    return { payment, publicKeyEncoded };
  });
  setHandler(authorizationOptionsRequest.signal, ({ requestId }) =>
    replies.answer(requestId, async () => {
      const closed = consentRefusal('authorization options');
      if (closed) return refused(closed);
      const options = await bank.getPaymentAuthorizationOptions(input.enrollmentId, payment?.id ?? '');
      publicKeyEncoded = options.public_key_encoded;
      return answered(publicKeyEncoded);
    }),
  );
  setHandler(authorizationRequest.signal, ({ requestId, assertion }) =>
    replies.answer(requestId, async () => {
      const closed = consentRefusal('an authorization');
      if (closed) return refused(closed);
      if (authorizing) return refused('an authorization is already in progress for this payment');
      authorizing = true;
      state.authorizeAttempts++;
      const paymentId = payment?.id ?? '';
      try {
        const authorized = await bank.authorizeBiometricPayment(input.enrollmentId, paymentId, {
          fido_assertion: assertion,
          riskSignals: null,
        });
        authorizedAtBank = true;
        if (!apply(authorized, 'authorize'))
          note('authorize', authorized.status, 'the bank accepted the assertion');
        return answered<AuthorizationResult>({ ok: true, status: authorized.status });
      } catch (error) {
        const refusal = bankRefusal(error, correctableRefusals);
        // A retried authorize whose first try reached the bank is refused as a repeat: the bank's own status
        // tells whether the payment went through.
        const current = await bank.getBiometricPayment(input.enrollmentId, paymentId);
        apply(current, 'poll');
        if (current.status !== 'created' && current.status !== 'awaiting_consent') {
          return answered<AuthorizationResult>({ ok: true, status: current.status });
        }
        note('authorize', 'refused', refusal.message);
        return answered<AuthorizationResult>({ ok: false, status: current.status, reason: refusal.message });
      } finally {
        authorizing = false;
        publish();
      }
    }),
  );

  /** Why `what` cannot be done now, or undefined while the consent window is open. */
  function consentRefusal(what: string): string | undefined {
    if (!payment || (state.phase !== 'created' && state.phase !== 'awaiting_consent')) {
      return `${what} is possible only while the payment awaits consent; it is ${state.phase}`;
    }
    if (consentClosed()) return `the consent window closed at ${state.consentDeadline}`;
    return undefined;
  }

  async function fail(type: string, message: string): Promise<never> {
    failure = ApplicationFailure.create({ type, message, nonRetryable: true });
    replies.set(startReplyId, refused(message, type));
    state.reason = message;
    publish();
    await condition(allHandlersFinished);
    throw failure;
  }

  // 1. Only an authorized enrollment can pay.
  const enrollments = await bank.listEnrollments({ device_id: input.deviceId });
  const enrollment = enrollments.data.find((candidate) => candidate.id === input.enrollmentId);
  if (enrollment?.status !== 'authorized') {
    await fail(
      'EnrollmentNotAuthorized',
      enrollment
        ? `enrollment ${input.enrollmentId} is ${enrollment.status}, not authorized: enroll the device again before paying`
        : `enrollment ${input.enrollmentId} does not exist for device ${input.deviceId}`,
    );
  }

  // 2. Create the payment and fetch its authorization options; the merchant gets both in one round trip.
  state.phase = 'creating';
  try {
    apply(
      await bank.createBiometricPayment(input.enrollmentId, {
        entity_id: input.entityId,
        virtual_account_id: input.virtualAccountId,
        amount: input.amountCents,
        description: input.description,
        external_id: input.externalId,
      }),
      'create',
    );
    state.consentDeadline = new Date(Date.now() + (input.consentWindowMs ?? 5 * 60_000)).toISOString();
    publicKeyEncoded = (await bank.getPaymentAuthorizationOptions(input.enrollmentId, payment?.id ?? ''))
      .public_key_encoded;
  } catch (error) {
    const refusal = bankRefusal(error, correctableRefusals);
    await fail('PaymentRefused', `the bank refused the payment: ${refusal.message}`);
  }
  if (payment && publicKeyEncoded) replies.set(startReplyId, answered({ payment, publicKeyEncoded }));
  takeWebhooks();
  publish();

  // 3. Wait for the customer's assertion until the consent window closes.
  await waitWithPolling({
    done: () => isFinal() || (payment !== undefined && movesForward('awaiting_consent', payment.status)),
    deadline: Date.parse(state.consentDeadline ?? ''),
    poll,
    polling,
    arrivals: () => inbox.count + state.authorizeAttempts,
  });
  await condition(() => !authorizing);

  // 4. Follow the bank until the payment is final. Unauthorized when the window closed, the payment is expected
  // to end at once, so the workflow asks soon and gives up quickly.
  const consentClosedUnauthorized = !authorizedAtBank && !isFinal();
  await waitWithPolling({
    done: isFinal,
    deadline: Date.now() + (consentClosedUnauthorized ? polling.maxPollIntervalMs : processingDeadlineMs),
    poll,
    polling: consentClosedUnauthorized
      ? { ...polling, firstPollAfterMs: Math.min(polling.firstPollAfterMs, 5_000) }
      : polling,
    arrivals: () => inbox.count,
  });

  // 5. A webhook is a hint: confirm the final status with the bank, and a settlement with the Pix cash-in.
  let outcome: PaymentOutcome;
  if (isFinal() && payment) {
    const confirmed = await bank.getBiometricPayment(input.enrollmentId, payment.id);
    note('confirmation', confirmed.status);
    apply(confirmed, 'confirmation');
    if (confirmed.status === 'settled') {
      // The cash-in usually follows the settlement within a moment; only a late one is looked for among the
      // events the receiver could not match, and once more before the bank's GET is taken as the only evidence.
      const waitMs = input.cashInWaitMs ?? 60_000;
      const graceMs = Math.min(waitMs, cashInGraceMs);
      const heard =
        (await waitForCashIn(graceMs)) ||
        (await claimCashIns()) ||
        (await waitForCashIn(waitMs - graceMs)) ||
        (await claimCashIns());
      if (!heard)
        note('confirmation', 'settled', 'no Pix cash-in event arrived; the bank GET confirms the settlement');
    }
    outcome = confirmed.status as PaymentOutcome;
    state.reason = authorizedAtBank
      ? `the bank reports the payment ${confirmed.status}`
      : `the bank reports the payment ${confirmed.status} before the customer authorized it${consentClosed() ? ' (the consent window closed)' : ''}`;
  } else {
    outcome = 'expired';
    state.reason = !authorizedAtBank
      ? 'the consent window closed before the customer authorized the payment'
      : 'the bank did not finish processing the payment in time';
  }
  state.phase = outcome;
  publish();
  await condition(allHandlersFinished);
  return {
    outcome,
    status: outcome === 'expired' || !payment ? 'expired' : payment.status,
    paymentId: payment?.id,
    endToEndId: payment?.end_to_end_id ?? null,
    transactionDate: payment?.transaction_date ?? null,
    reason: state.reason,
    evidence: state.evidence,
  };
}

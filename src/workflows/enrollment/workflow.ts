import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../../activities/index.js';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import { bankCallOptions } from '../activity-options.js';
import { searchAttributes } from '../search-attributes.js';
import { bankRefusal, correctableRefusals } from '../shared/bank-failure.js';
import { EventInbox } from '../shared/event-inbox.js';
import { defaultPolling, waitWithPolling } from '../shared/polling.js';
import { accountMatchesSuggestion } from './account.js';
import { answered, MerchantReplies, refused, startReplyId } from '../shared/merchant-requests.js';
import { memoKeys, publishToMemo } from '../shared/published-memo.js';
import { SearchAttributesPublisher } from '../shared/search-attributes-publisher.js';
import {
  credentialRequest,
  enrollmentResultQuery,
  enrollmentStartedUpdate,
  enrollmentStateQuery,
  enrollmentWebhookSignal,
  initialEnrollmentState,
  registrationOptionsRequest,
  type EnrollmentInput,
  type EnrollmentOutcome,
  type EnrollmentResult,
  type EnrollmentStarted,
  type EnrollmentState,
  type RegistrationResult,
} from './definitions.js';

const bank =
  proxyActivities<
    Pick<Activities, 'createEnrollment' | 'listEnrollments' | 'getRegistrationOptions' | 'registerCredential'>
  >(bankCallOptions);

const minutes = (n: number) => n * 60_000;

const endingFor: Partial<Record<Enrollment['status'], EnrollmentOutcome>> = {
  rejected: 'rejected',
  revoked: 'revoked',
  inactive: 'expired',
};

/**
 * A device's Pix biometric enrollment with one participant, steps 4-6 of the bank's biometric flow: create the
 * enrollment and hand its redirect URL to the merchant at once, wait for the account holder to authorize at the
 * bank, take the credential registration, and reach `authorized` once the bank confirms it. The workflow then
 * stays with the enrollment while it is usable and ends when the bank revokes or expires it. Rejected and
 * expired journeys end with that outcome; an authorized account other than the suggested one ends as blocked.
 */
export async function enrollmentWorkflow(input: EnrollmentInput): Promise<EnrollmentResult> {
  const polling = input.polling ?? defaultPolling;
  const inbox = new EventInbox();
  const state: EnrollmentState = input.resume?.state ?? initialEnrollmentState(input);
  let enrollment: Enrollment | undefined = input.resume?.enrollment;
  let registering = false;
  const replies = new MerchantReplies(publishToCallers);
  const searchAttributesPublisher = new SearchAttributesPublisher();

  const ended = () => state.phase !== 'authorized' && state.reason !== undefined;
  const hasOutcome = () => state.reason !== undefined;
  const result = (): EnrollmentResult => ({
    outcome: state.phase as EnrollmentOutcome,
    reason: state.reason ?? '',
    enrollment,
  });

  function conclude(outcome: EnrollmentOutcome, reason: string): void {
    if (ended()) return;
    state.phase = outcome;
    state.reason = reason;
    publish();
  }

  /** Applies what the bank says about the enrollment, from a webhook, a poll or a register response. */
  function apply(latest: Enrollment, source: string): void {
    if (ended() || (enrollment && latest.updated_at < enrollment.updated_at)) return;
    enrollment = latest;
    state.enrollmentId = latest.id;
    state.redirectUrl = latest.redirect_url;
    state.expirationDatetime = latest.expiration_datetime;
    state.accountInfo = latest.account_info ?? state.accountInfo;
    const ending = endingFor[latest.status];
    if (ending) {
      conclude(ending, `the bank reports the enrollment ${latest.status} (${source})`);
    } else if (
      latest.status === 'awaiting_account_holder_validation' ||
      latest.status === 'awaiting_enrollment'
    ) {
      state.phase = latest.status;
    }
    publish();
  }

  /** What the merchant reads (starter/published.ts). */
  function publishToCallers(): void {
    publishToMemo([
      { key: memoKeys.state, value: state },
      { key: memoKeys.outcome, value: hasOutcome() ? result() : undefined },
      replies.memoEntry(),
    ]);
  }

  /** What the merchant reads, and what support staff search and see in the Temporal UI. */
  function publish(): void {
    publishToCallers();
    searchAttributesPublisher.publish([
      { key: searchAttributes.status, value: state.phase },
      ...(state.enrollmentId ? [{ key: searchAttributes.enrollmentId, value: state.enrollmentId }] : []),
    ]);
    setCurrentDetails(
      [
        `**Enrollment** ${state.enrollmentId ?? '(not created yet)'} — **${state.phase}**`,
        `Device ${state.deviceId}, participant ${state.participantId}`,
        state.reason ? `Outcome: ${state.reason}` : `Waiting for: ${waitingFor()}`,
        `Webhooks: ${state.webhooksReceived} (${state.duplicateWebhooks} duplicates ignored), polls: ${state.polls}`,
      ].join('\n\n'),
    );
  }

  function waitingFor(): string {
    switch (state.phase) {
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

  async function poll(): Promise<void> {
    if (!state.enrollmentId) return;
    state.polls++;
    const page = await bank.listEnrollments({ device_id: input.deviceId });
    const latest = page.data.find((candidate) => candidate.id === state.enrollmentId);
    if (latest) apply(latest, 'polled');
    publishToCallers();
  }

  function takeWebhooks(): void {
    for (const { envelope, resource } of inbox.drain()) {
      if (resource?.kind === 'enrollment' && resource.data.id === state.enrollmentId)
        apply(resource.data, `webhook ${envelope.type}`);
    }
  }

  const started = (created: Enrollment): EnrollmentStarted => ({
    enrollmentId: created.id,
    redirectUrl: created.redirect_url,
    status: created.status,
    expirationDatetime: created.expiration_datetime,
  });

  setHandler(enrollmentStateQuery, () => state);
  setHandler(enrollmentResultQuery, () => (hasOutcome() ? result() : null));
  setHandler(enrollmentWebhookSignal, (event) => {
    if (inbox.accept(event)) state.webhooksReceived++;
    else state.duplicateWebhooks++;
    if (state.enrollmentId) takeWebhooks();
    publishToCallers();
  });
  setHandler(enrollmentStartedUpdate, async () => {
    await condition(() => state.enrollmentId !== undefined || hasOutcome());
    if (!enrollment) {
      throw ApplicationFailure.create({
        type: 'EnrollmentRefused',
        message: state.reason ?? 'no enrollment',
      });
    }
    return started(enrollment);
  });
  // A merchant may ask as soon as the customer is back from the bank, before the bank's authorization reached the
  // workflow, so the request waits for the step instead of being refused.
  setHandler(registrationOptionsRequest.signal, ({ requestId }) =>
    replies.answer(requestId, async () => {
      await condition(
        () => state.phase !== 'creating' && state.phase !== 'awaiting_account_holder_validation',
      );
      if (state.phase !== 'awaiting_enrollment') {
        return refused(
          `registration options are available only while the enrollment is awaiting_enrollment; it is ${state.phase}`,
        );
      }
      return answered((await bank.getRegistrationOptions(state.enrollmentId ?? '')).public_key_encoded);
    }),
  );
  setHandler(credentialRequest.signal, ({ requestId, assertion }) =>
    replies.answer(requestId, async () => {
      if (state.phase !== 'awaiting_enrollment') {
        return refused(
          `a credential registration is possible only while the enrollment is awaiting_enrollment; it is ${state.phase}`,
        );
      }
      if (registering) return refused('a credential registration is already in progress for this enrollment');
      registering = true;
      try {
        const registered = await bank.registerCredential(state.enrollmentId ?? '', {
          fido_assertion: assertion,
        });
        apply(registered, 'register response');
        return answered<RegistrationResult>({ ok: true, status: registered.status, enrollment: registered });
      } catch (error) {
        const refusal = bankRefusal(error, correctableRefusals);
        return answered<RegistrationResult>({ ok: false, reason: refusal.message, errors: refusal.details });
      } finally {
        registering = false;
      }
    }),
  );

  async function end(): Promise<EnrollmentResult> {
    publish();
    await condition(allHandlersFinished);
    return result();
  }

  if (!input.resume) {
    // Step 4: create the enrollment; the merchant's update-with-start call is answered from here.
    try {
      enrollment = await bank.createEnrollment({
        device_id: input.deviceId,
        participant_id: input.participantId,
        return_to_url: input.returnToUrl,
        external_id: input.externalId,
        ...(input.suggestedAccount ? { account_info: input.suggestedAccount } : {}),
      });
    } catch (error) {
      const refusal = bankRefusal(error, correctableRefusals);
      conclude('rejected', `the bank refused to create the enrollment: ${refusal.message}`);
      replies.set(startReplyId, refused(state.reason ?? refusal.message));
      await condition(allHandlersFinished);
      throw ApplicationFailure.create({
        type: 'EnrollmentRefused',
        message: state.reason ?? refusal.message,
        nonRetryable: true,
      });
    }
    apply(enrollment, 'create response');
    replies.set(startReplyId, answered(started(enrollment)));
    takeWebhooks();

    // Step 5a: the account holder authorizes at the bank.
    await waitWithPolling({
      done: () => ended() || state.phase !== 'awaiting_account_holder_validation',
      deadline: Date.now() + (input.deadlines?.accountHolderValidationMs ?? minutes(15)),
      poll,
      polling,
      arrivals: () => inbox.count,
    });
    if (state.phase === 'awaiting_account_holder_validation') {
      conclude('expired', 'the account holder did not authorize at the bank in time');
    }
    if (ended()) return end();

    // Step 5b-6: the credential is registered and the bank authorizes the enrollment.
    await waitWithPolling({
      done: () => ended() || enrollment?.status === 'authorized',
      deadline: Date.now() + (input.deadlines?.registrationMs ?? minutes(5)),
      poll,
      polling,
      arrivals: () => inbox.count,
    });
    await condition(() => !registering);
    if (!ended() && enrollment?.status === 'authorized') await poll();
    if (ended()) return end();
    if (enrollment?.status !== 'authorized') {
      conclude('expired', 'the biometric credential was not registered in time');
      return end();
    }
    if (
      input.suggestedAccount &&
      !accountMatchesSuggestion(input.suggestedAccount, state.accountInfo ?? null)
    ) {
      conclude(
        'blocked',
        'the bank authorized an account other than the suggested one; the enrollment is blocked',
      );
      return end();
    }
    state.phase = 'authorized';
    state.reason = 'the enrollment is authorized and ready for payments';
    publish();
  }

  // While authorized, follow the enrollment until the bank revokes or expires it. A run continued from the previous
  // one makes sure its memo holds the journey so far before it waits, possibly for a day.
  publishToCallers();
  const checkEveryMs = input.authorizedCheckIntervalMs ?? 24 * 60 * 60_000;
  while (!ended()) {
    const arrivals = inbox.count;
    const heard = await condition(
      () => ended() || inbox.count !== arrivals || workflowInfo().continueAsNewSuggested,
      checkEveryMs,
    );
    if (!heard) await poll();
    if (!ended() && workflowInfo().continueAsNewSuggested && enrollment) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof enrollmentWorkflow>({ ...input, resume: { enrollment, state } });
    }
  }
  return end();
}

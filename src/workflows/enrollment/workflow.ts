import { allHandlersFinished, ApplicationFailure, condition, setHandler } from '@temporalio/workflow';
import type { Enrollment } from '../../bank/schemas/enrollment.js';
import {
  enrollmentTimings,
  sensitiveEnrollmentTerms,
  type EnrollmentInput,
  type EnrollmentResult,
} from '../../contract/enrollment.js';
import {
  enrollmentStartedUpdate,
  enrollmentWebhookSignal,
  registerCredentialUpdate,
  registrationOptionsUpdate,
} from '../../contract/temporal.js';
import { failureTypes, answered, refused } from '../../contract/journeys.js';
import { bankRefusal, correctableRefusals, defaultPolling, followBank } from '../shared/follow-bank.js';
import {
  continueJourneyAsNew,
  watchForNewVersion,
  runDeadline,
  checkStartTerms,
} from '../shared/journey-run.js';
import {
  bankAuthorized,
  conclude,
  concludeAuthorized,
  ended,
  enrollmentResult,
  pendingStep,
  started,
  stepExpired,
} from './journey.js';
import { EnrollmentRun } from './run.js';

/**
 * A device's Pix biometric enrollment with one participant, steps 4-6 of the bank's biometric flow: create
 * the enrollment and hand its redirect URL to the merchant at once, wait for the account holder to authorize
 * at the bank, take the credential registration, and reach `authorized` once the bank's record shows it. The
 * workflow then stays with the enrollment while it is usable and ends when the bank revokes or expires it.
 * Rejected and expired journeys end with that outcome; an authorized account other than the suggested one
 * ends as blocked. Webhooks only make the workflow ask the bank sooner.
 */
export async function enrollmentWorkflow(input: EnrollmentInput): Promise<EnrollmentResult> {
  const newVersion = watchForNewVersion();
  const enrollment = new EnrollmentRun(input);
  setHandler(enrollmentWebhookSignal, (event) => enrollment.receive(event));
  setHandler(enrollmentStartedUpdate, () => enrollment.awaitStartReply(), {
    validator: (terms) => checkStartTerms(terms, sensitiveEnrollmentTerms),
  });
  setHandler(registrationOptionsUpdate, () => enrollment.registrationOptions(), {
    validator: () => enrollment.checkStepAhead('fetching registration options'),
  });
  setHandler(registerCredentialUpdate, (request) => enrollment.register(request.assertion), {
    validator: (request) => enrollment.checkRegistration(request),
  });

  if (!input.resume) await create(enrollment);
  if (!ended(enrollment.journey) && !bankAuthorized(enrollment.journey))
    await waitForAuthorization(enrollment);
  if (!ended(enrollment.journey)) await watchWhileAuthorized(enrollment, newVersion);
  enrollment.publish();
  await enrollment.notifier.runFinished();
  return enrollmentResult(enrollment.journey);
}

/** 4. Create the enrollment; the merchant's start is answered with its redirect URL. */
async function create(enrollment: EnrollmentRun): Promise<void> {
  const { input, journey } = enrollment;
  let created: Enrollment;
  try {
    created = await enrollment.writes().createEnrollment({
      device_id: input.deviceId,
      participant_id: input.participantId,
      return_to_url: input.returnToUrl,
      external_id: input.externalId,
      ...(input.suggestedAccount ? { account_info: input.suggestedAccount } : {}),
    });
  } catch (error) {
    if (enrollment.windowClosed(error)) {
      created = await createdAnyway(enrollment);
    } else {
      const refusedCreate = bankRefusal(error, correctableRefusals);
      conclude(journey, 'rejected', `the bank refused to create the enrollment: ${refusedCreate.message}`);
      return failStart(
        enrollment,
        failureTypes.enrollmentRefused,
        journey.state.reason ?? refusedCreate.message,
      );
    }
  }
  enrollment.adopt(created, 'create response');
  enrollment.replyToStart(answered(started(created)));
}

/**
 * A create given up with the account holder's window: an attempt may still have reached the bank, so its list
 * of the device's enrollments tells. The enrollment it holds under the external id is the journey's, followed
 * as usual; without one the journey ends as BankUnreachable, and nothing is sent to create it afterwards.
 */
async function createdAnyway(enrollment: EnrollmentRun): Promise<Enrollment> {
  const { input } = enrollment;
  const found = (await enrollment.devicesEnrollments()).find(
    (candidate) => candidate.external_id === input.externalId,
  );
  if (found) return found;
  const reason =
    "the bank could not be reached within the account holder's window; nothing more is sent to it for this enrollment: enroll again with a new external id";
  enrollment.journey.state.reason = reason;
  return failStart(enrollment, failureTypes.bankUnreachable, reason);
}

/**
 * Ends the workflow as failed with `type` before the bank created the enrollment, the start refused alike.
 */
async function failStart(enrollment: EnrollmentRun, type: string, reason: string): Promise<never> {
  enrollment.replyToStart(refused(reason, type));
  await condition(allHandlersFinished);
  throw ApplicationFailure.create({ type, message: reason, nonRetryable: true });
}

/**
 * 5-6. The account holder authorizes at the bank, the credential is registered (an update), and the bank's
 * record shows the enrollment authorized. Each step has the bank's window; a step the bank still shows once
 * its window and a grace period passed ends the journey as expired. However many requests arrive meanwhile,
 * the run continues as new before its history reaches its bound, and the next run keeps the step's window.
 */
async function waitForAuthorization(enrollment: EnrollmentRun): Promise<void> {
  const { journey, input } = enrollment;
  const trouble = troubleFollow(enrollment);
  // A continued run asks at once about a hint the previous run heard too late to ask about.
  if (input.resume?.unansweredHint) await enrollment.poll();
  while (!ended(journey) && !bankAuthorized(journey)) {
    const step = pendingStep(journey);
    if (!step) break;
    const moved = () => ended(journey) || bankAuthorized(journey) || pendingStep(journey) !== step;
    const arrived = await followBank({
      done: moved,
      deadline: enrollment.stepWindowEnd() + enrollmentTimings.afterWindowMs,
      poll: () => enrollment.poll(),
      polling: input.polling ?? defaultPolling,
      hints: enrollment.hints.forWait(() => enrollment.registering),
      historyBound: enrollmentTimings.historyBound - enrollmentTimings.historyHeadroom,
      trouble,
    });
    if (arrived === 'history-full')
      await continueJourneyAsNew(input, () => enrollment.carry(), enrollment.notifier, 'same');
    // The window passed while the bank's reads fail: the bank's record, once read, says whether the step
    // expired.
    if (arrived === 'deadline' && trouble.active())
      await followBank({
        done: () => moved() || !trouble.active(),
        deadline: Infinity,
        poll: () => enrollment.poll(),
        polling: trouble.polling,
        trouble,
      });
    await condition(() => !enrollment.registering);
    if (arrived === 'deadline' && pendingStep(journey) === step) stepExpired(journey);
  }
  if (!ended(journey) && bankAuthorized(journey)) concludeAuthorized(journey, input);
  enrollment.publish();
}

/** How the enrollment follows the bank while its reads fail: at its step's polling, not a day apart. */
const troubleFollow = ({ journey, input }: EnrollmentRun) => ({
  active: () => journey.state.bankTrouble !== undefined,
  polling: input.polling ?? defaultPolling,
});

/**
 * While authorized, the workflow stays with the enrollment until the bank revokes or expires it: a webhook
 * sends it to the bank's list, and a daily check covers a lost one. Each run continues as new once its
 * history reaches the bound, once it has been open for its lifetime (at most 30 days), and at the first
 * workflow task that finds a new version current (`newVersion`), whose next run starts on that version.
 */
async function watchWhileAuthorized(enrollment: EnrollmentRun, newVersion: () => boolean): Promise<void> {
  const { journey, input } = enrollment;
  // A run continued from the previous one makes sure the memo holds the journey before it waits for a day,
  // and first reads the bank for a webhook the previous run heard too late to ask about.
  enrollment.publishToCallers();
  if (input.resume?.unansweredHint) await enrollment.poll();
  const daily = enrollmentTimings.authorizedCheckIntervalMs;
  const deadline = runDeadline(input.maxRunMs);
  while (!ended(journey)) {
    const end = await followBank({
      done: () => ended(journey),
      deadline,
      poll: () => enrollment.poll(),
      polling: { firstPollAfterMs: daily, maxPollIntervalMs: daily },
      hints: enrollment.hints.forWait(),
      historyBound: enrollmentTimings.historyBound - enrollmentTimings.historyHeadroom,
      newVersion,
      trouble: troubleFollow(enrollment),
    });
    if (end !== 'done')
      await continueJourneyAsNew(input, () => enrollment.carry(), enrollment.notifier, 'current');
  }
}

import { defineSignal, defineUpdate } from '@temporalio/workflow';
import type { EnrollmentStarted, RegisterRequest, RegistrationResult } from './enrollment.js';
import type { StartTerms } from './start-terms.js';
import type { ReceivedWebhook } from './webhook-events.js';

/**
 * Starts the enrollment and answers once the bank created it: the redirect URL the customer must open. Sent
 * with the workflow's start (update-with-start) by every start of the device with the participant: a repeated
 * start with the same terms joins the running workflow and gets the same answer, one with other terms is
 * refused.
 */
export const enrollmentStartedUpdate = defineUpdate<EnrollmentStarted, [StartTerms]>('enrollmentStarted');
/** Fresh WebAuthn creation options (`public_key_encoded`); waits for the registration step if asked early. */
export const registrationOptionsUpdate = defineUpdate<string>('registrationOptions');
/** Registers the credential the device created; a bank refusal is an answer too, and can be retried. */
export const registerCredentialUpdate = defineUpdate<RegistrationResult, [RegisterRequest]>(
  'registerCredential',
);
/** A `pix_biometrics_enrollment` webhook, routed by the receiver. */
export const enrollmentWebhookSignal = defineSignal<[ReceivedWebhook]>('enrollmentWebhook');

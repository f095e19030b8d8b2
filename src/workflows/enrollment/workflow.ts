import type { EnrollmentInput, EnrollmentResult } from './definitions.js';
import { ended } from './machine.js';
import { EnrollmentSteps } from './steps.js';

/**
 * A device's Pix biometric enrollment with one participant, steps 4-6 of the bank's biometric flow: create the
 * enrollment and hand its redirect URL to the merchant at once, wait for the account holder to authorize at the
 * bank, take the credential registration, and reach `authorized` once the bank's record shows it. The workflow then
 * stays with the enrollment while it is usable and ends when the bank revokes or expires it. Rejected and expired
 * journeys end with that outcome; an authorized account other than the suggested one ends as blocked. Webhooks
 * only make the workflow ask the bank sooner.
 */
export async function enrollmentWorkflow(input: EnrollmentInput): Promise<EnrollmentResult> {
  const enrollment = new EnrollmentSteps(input);
  if (!input.resume) {
    await enrollment.create();
    await enrollment.waitForAuthorization();
  }
  if (!ended(enrollment.journey)) await enrollment.watchWhileAuthorized();
  return enrollment.finish();
}

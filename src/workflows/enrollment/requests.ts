import { setHandler } from '@temporalio/workflow';
import { refusal, requireAssertion } from '../shared/merchant-requests.js';
import {
  enrollmentStartedUpdate,
  enrollmentWebhookSignal,
  registerCredentialUpdate,
  registrationOptionsUpdate,
  type RegisterRequest,
  sensitiveEnrollmentTerms,
} from './definitions.js';
import type { EnrollmentSteps } from './steps.js';

/** What an enrollment workflow answers while it runs: the merchant's updates and the receiver's webhooks. */
export function installEnrollmentHandlers(enrollment: EnrollmentSteps): void {
  const checkOptions = () => enrollment.registration.checkStepAhead('fetching registration options');
  const checkCredential = (request: RegisterRequest) => {
    requireAssertion(request);
    enrollment.registration.checkRegistrationStep('a credential registration');
    if (enrollment.registration.registering)
      throw refusal('a credential registration is already in progress for this enrollment');
  };

  setHandler(enrollmentWebhookSignal, (event) => enrollment.receive(event));
  enrollment.answerStarts(enrollmentStartedUpdate, sensitiveEnrollmentTerms);
  setHandler(registrationOptionsUpdate, () => enrollment.registration.options(), { validator: checkOptions });
  setHandler(
    registerCredentialUpdate,
    (request: RegisterRequest) => enrollment.registration.register(request.assertion),
    {
      validator: checkCredential,
    },
  );
}

import { setHandler } from '@temporalio/workflow';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import { answerLegacyRequest, legacyRequest } from '../shared/legacy-request-signals.js';
import { refusal, requireAssertion } from '../shared/merchant-requests.js';
import {
  enrollmentResultQuery,
  enrollmentStartedUpdate,
  enrollmentStateQuery,
  enrollmentWebhookSignal,
  registerCredentialUpdate,
  registrationOptionsUpdate,
  type RegisterRequest,
  sensitiveEnrollmentTerms,
} from './definitions.js';
import { enrollmentResult, hasOutcome } from './machine.js';
import type { EnrollmentSteps } from './steps.js';

/** The merchant's requests as enrollment workflows recorded before updates took them (legacy-request-signals.ts). */
const legacyOptionsRequest = legacyRequest('registrationOptionsRequested');
const legacyCredentialRequest = legacyRequest<{ assertion: RegisterFidoAssertion }>('credentialSubmitted');

/** What an enrollment workflow answers while it runs: the merchant's updates, the receiver's webhooks, legacy queries. */
export function installEnrollmentHandlers(enrollment: EnrollmentSteps): void {
  const { journey } = enrollment;
  const checkOptions = () => enrollment.registration.checkStepAhead('fetching registration options');
  const checkCredential = (request: RegisterRequest) => {
    requireAssertion(request);
    enrollment.registration.checkRegistrationStep('a credential registration');
    if (enrollment.registration.registering)
      throw refusal('a credential registration is already in progress for this enrollment');
  };

  setHandler(enrollmentStateQuery, () => journey.state);
  setHandler(enrollmentResultQuery, () => (hasOutcome(journey) ? enrollmentResult(journey) : null));
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
  answerLegacyRequest(enrollment.replies, legacyOptionsRequest, checkOptions, () =>
    enrollment.registration.options(),
  );
  answerLegacyRequest(enrollment.replies, legacyCredentialRequest, checkCredential, ({ assertion }) =>
    enrollment.registration.register(assertion),
  );
}

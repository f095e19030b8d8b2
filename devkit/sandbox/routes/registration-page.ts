import type { FastifyInstance } from 'fastify';
import { findEnrollment, Refusal, type BiometricsContext } from '../biometrics/context.js';
import { answerRegistration, answerRegistrationOptions } from '../biometrics/registration.js';
import { sendHostedPage } from './hosted-pages.js';

type EnrollmentParams = { Params: { enrollmentId: string } };

/**
 * The bank's hosted registration page, where the customer lands after authorizing at the bank. The page
 * itself fetches the creation options and registers the credential, as the bank's own page would, then sends
 * the customer to the enrollment's return_to_url; the merchant learns of it from the `authorized` webhook.
 */
export function registrationPageRoutes(app: FastifyInstance, context: BiometricsContext): void {
  const page = '/sandbox/registration/:enrollmentId';

  app.get<EnrollmentParams>(page, (request, reply) =>
    sendHostedPage(request, reply, context.webauthn, 'registration.html'),
  );

  app.get<EnrollmentParams>(`${page}/session`, async (request, reply) => {
    const entry = findEnrollment(context, request.params.enrollmentId);
    if (entry instanceof Refusal) return entry.send(reply);
    const { participant } = context.state.biometrics.partiesOf(entry);
    return {
      data: {
        enrollment_id: entry.record.id,
        status: entry.record.status,
        participant_name: participant.name,
        return_to_url: entry.returnToUrl,
      },
    };
  });

  app.get<EnrollmentParams>(`${page}/options`, (request, reply) =>
    answerRegistrationOptions(context, request.params.enrollmentId, reply),
  );

  app.post<EnrollmentParams>(`${page}/register`, (request, reply) =>
    answerRegistration(context, request.params.enrollmentId, request.body, reply),
  );
}

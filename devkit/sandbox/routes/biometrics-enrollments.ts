import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { uuid } from '../../../src/bank/schemas/common.js';
import { finalEnrollmentStatuses } from '../../../src/bank/schemas/enrollment.js';
import { createEnrollmentRequestSchema } from '../../../src/bank/schemas/enrollment-request.js';
import { customerAccount, suggestedAccountInfo } from '../biometrics/accounts.js';
import { Refusal, type BiometricsContext } from '../biometrics/context.js';
import { answerRegistration, answerRegistrationOptions } from '../biometrics/registration.js';
import type { EnrollmentEntry } from '../biometrics/state.js';
import { listedEnrollmentsOfDevice } from '../biometrics/views.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { parseParameters } from '../query.js';
import { answerRepeatedCreate } from '../repeated-create.js';

const enrollmentsPath = '/banking/cashin/pix/biometrics/enrollments';
const enrollmentsQuerySchema = z.strictObject({ device_id: uuid });

type EnrollmentParams = { Params: { enrollmentId: string } };

/** The sandbox's own address as the caller reached it, for the pages it sends customers to. */
const baseUrl = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** Enrollment creation and listing, and the credential registration that authorizes an enrollment. */
export function biometricsEnrollmentRoutes(app: FastifyInstance, context: BiometricsContext): void {
  const biometrics = () => context.state.biometrics;

  app.post(enrollmentsPath, async (request, reply) => {
    const parsed = createEnrollmentRequestSchema.safeParse(request.body);
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const body = parsed.data;
    const externalId = body.external_id;
    const first =
      externalId === undefined ? undefined : biometrics().enrollmentByExternalId(body.device_id, externalId);
    if (first && externalId !== undefined)
      return answerRepeatedCreate(reply, 'enrollment', externalId, first, body);

    const device = biometrics().devices.get(body.device_id);
    if (!device) return new Refusal(422, 'NOT_FOUND', 'no device with this id', '/device_id').send(reply);
    const participant = biometrics().participant(body.participant_id);
    if (!participant) {
      return new Refusal(422, 'NOT_FOUND', 'no participant with this id', '/participant_id').send(reply);
    }
    if (participant.unavailable || !participant.is_enrollment_available) {
      return new Refusal(
        422,
        'PARTICIPANT_UNAVAILABLE',
        `${participant.name} is not accepting enrollments`,
        '/participant_id',
      ).send(reply);
    }
    const open = biometrics()
      .enrollmentsOfDevice(device.record.id)
      .find(
        (entry) =>
          entry.record.participant_id === participant.id &&
          !finalEnrollmentStatuses.includes(entry.record.status),
      );
    if (open) {
      return new Refusal(
        409,
        'ENROLLMENT_EXISTS',
        `device already has enrollment ${open.record.id} (${open.record.status}) with ${participant.name}`,
      ).send(reply);
    }

    const id = randomUUID();
    const now = new Date().toISOString();
    const suggestedAccount = suggestedAccountInfo(body, device.record, participant);
    const entry: EnrollmentEntry = {
      record: {
        id,
        device_id: device.record.id,
        participant_id: participant.id,
        external_id: body.external_id ?? null,
        status: 'awaiting_account_holder_validation',
        redirect_url: `${baseUrl(request)}/sandbox/bank-authorization/${id}`,
        expiration_datetime: null,
        inserted_at: now,
        updated_at: now,
        // The spec has account_info present in the create response: the suggested account, or the one the
        // bank holds for this customer at the participant, which the customer may still change at the bank.
        account_info: suggestedAccount ?? customerAccount(device.record, participant),
      },
      returnToUrl: body.return_to_url,
      suggestedAccount,
      expiresAt: null,
      credentials: [],
      registrationChallenge: null,
      request: body,
    };
    context.lifecycle.openEnrollment(entry);
    return { data: entry.record };
  });

  app.get(enrollmentsPath, async (request, reply) => {
    const query = parseParameters(reply, 'query', enrollmentsQuerySchema, request.query);
    if (!query) return reply;
    const deviceId = query.device_id;
    if (!biometrics().devices.has(deviceId)) {
      return new Refusal(404, 'NOT_FOUND', `device ${deviceId} not found`, '/query/device_id').send(reply);
    }
    return { data: listedEnrollmentsOfDevice(biometrics(), context.state.reads, deviceId) };
  });

  app.get<EnrollmentParams>('/biometrics/enrollments/:enrollmentId/credentials', (request, reply) =>
    answerRegistrationOptions(context, request.params.enrollmentId, reply),
  );

  app.post<EnrollmentParams>(`${enrollmentsPath}/:enrollmentId/register`, (request, reply) =>
    answerRegistration(context, request.params.enrollmentId, request.body, reply),
  );
}

import { body, endpoint, query } from '../resource.js';
import { enrollmentSchema } from '../schemas/enrollment.js';
import type { CreateEnrollmentRequest } from '../schemas/enrollment-request.js';
import { publicKeyOptionsSchema, type RegisterCredentialRequest } from '../schemas/fido.js';

/**
 * Pix biometric enrollments, which the enrollment workflow drives. The spec mixes prefixes within the
 * biometrics family; these are its summary table's paths, which the sandbox serves too.
 */
export const enrollments = {
  /**
   * POST /banking/cashin/pix/biometrics/enrollments — a repeated external_id answers the first enrollment.
   */
  createEnrollment: endpoint({
    method: 'POST',
    route: '/banking/cashin/pix/biometrics/enrollments',
    request: body<CreateEnrollmentRequest>(),
    record: enrollmentSchema,
    answers: 'record',
    activity: true,
  }),

  /** GET /banking/cashin/pix/biometrics/enrollments?device_id= */
  listEnrollments: endpoint({
    method: 'GET',
    route: '/banking/cashin/pix/biometrics/enrollments',
    request: query<{ device_id: string }>(),
    record: enrollmentSchema,
    answers: 'page',
    activity: true,
  }),

  /** GET /biometrics/enrollments/{enrollment_id}/credentials — WebAuthn creation options. */
  getRegistrationOptions: endpoint({
    method: 'GET',
    route: '/biometrics/enrollments/{enrollment_id}/credentials',
    record: publicKeyOptionsSchema,
    answers: 'record',
    activity: true,
  }),

  /** POST .../enrollments/{enrollment_id}/register */
  registerCredential: endpoint({
    method: 'POST',
    route: '/banking/cashin/pix/biometrics/enrollments/{enrollment_id}/register',
    request: body<RegisterCredentialRequest>(),
    record: enrollmentSchema,
    answers: 'record',
    activity: true,
  }),
};

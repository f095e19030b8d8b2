import type { z } from 'zod';
import type { BankRequest } from './http.js';
import { list, single } from './schemas/common.js';
import { deviceSchema, type DeviceRequest } from './schemas/device.js';
import { enrollmentSchema } from './schemas/enrollment.js';
import type { CreateEnrollmentRequest } from './schemas/enrollment-request.js';
import { participantListingSchema } from './schemas/participant-listing.js';
import { biometricPaymentSchema } from './schemas/biometric-payment.js';
import type { CreateBiometricPaymentRequest } from './schemas/biometric-payment-request.js';
import {
  publicKeyOptionsSchema,
  type AuthorizePaymentRequest,
  type RegisterCredentialRequest,
} from './schemas/fido.js';

const segment = (value: string) => encodeURIComponent(value);

const enrollmentsPath = '/banking/cashin/pix/biometrics/enrollments';
const enrollmentPath = (enrollmentId: string) => `${enrollmentsPath}/${segment(enrollmentId)}`;
const paymentPath = (enrollmentId: string, paymentId: string) =>
  `${enrollmentPath(enrollmentId)}/payments/${segment(paymentId)}`;

/**
 * The spec mixes prefixes within the biometrics family; these are its summary table's paths, which the sandbox
 * serves too.
 */
export const biometricsPaths = {
  devices: '/biometrics/devices',
  participants: '/biometrics/participants',
  enrollments: enrollmentsPath,
  registrationOptions: (enrollmentId: string) =>
    `/biometrics/enrollments/${segment(enrollmentId)}/credentials`,
  register: (enrollmentId: string) => `${enrollmentPath(enrollmentId)}/register`,
  payments: (enrollmentId: string) => `${enrollmentPath(enrollmentId)}/payments`,
  payment: paymentPath,
  authorizationOptions: (enrollmentId: string, paymentId: string) =>
    `${paymentPath(enrollmentId, paymentId)}/credentials`,
  authorize: (enrollmentId: string, paymentId: string) => `${paymentPath(enrollmentId, paymentId)}/authorize`,
};

const paymentRoute = `${enrollmentsPath}/{enrollment_id}/payments/{payment_id}`;

const bankRequest = <T extends z.ZodType>(request: BankRequest<T>) => request;

/** How each biometrics call is sent; BankClient's methods are thin typed entry points over these. */
export const biometricsRequests = {
  findOrCreateDevice: (body: DeviceRequest) =>
    bankRequest({
      operation: 'findOrCreateDevice',
      method: 'POST',
      path: biometricsPaths.devices,
      body,
      schema: single(deviceSchema),
    }),

  listParticipants: (query: { device_id?: string }) =>
    bankRequest({
      operation: 'listParticipants',
      method: 'GET',
      path: biometricsPaths.participants,
      query: { device_id: query.device_id },
      schema: list(participantListingSchema),
    }),

  createEnrollment: (body: CreateEnrollmentRequest) =>
    bankRequest({
      operation: 'createEnrollment',
      method: 'POST',
      path: biometricsPaths.enrollments,
      body,
      schema: single(enrollmentSchema),
    }),

  listEnrollments: (query: { device_id: string }) =>
    bankRequest({
      operation: 'listEnrollments',
      method: 'GET',
      path: biometricsPaths.enrollments,
      query: { device_id: query.device_id },
      schema: list(enrollmentSchema),
    }),

  getRegistrationOptions: (enrollmentId: string) =>
    bankRequest({
      operation: 'getRegistrationOptions',
      method: 'GET',
      path: biometricsPaths.registrationOptions(enrollmentId),
      route: '/biometrics/enrollments/{enrollment_id}/credentials',
      schema: single(publicKeyOptionsSchema),
    }),

  registerCredential: (enrollmentId: string, body: RegisterCredentialRequest) =>
    bankRequest({
      operation: 'registerCredential',
      method: 'POST',
      path: biometricsPaths.register(enrollmentId),
      route: `${enrollmentsPath}/{enrollment_id}/register`,
      body,
      schema: single(enrollmentSchema),
    }),

  createBiometricPayment: (enrollmentId: string, body: CreateBiometricPaymentRequest) =>
    bankRequest({
      operation: 'createBiometricPayment',
      method: 'POST',
      path: biometricsPaths.payments(enrollmentId),
      route: `${enrollmentsPath}/{enrollment_id}/payments`,
      body,
      schema: single(biometricPaymentSchema),
    }),

  getBiometricPayment: (enrollmentId: string, paymentId: string) =>
    bankRequest({
      operation: 'getBiometricPayment',
      method: 'GET',
      path: biometricsPaths.payment(enrollmentId, paymentId),
      route: paymentRoute,
      schema: single(biometricPaymentSchema),
    }),

  getPaymentAuthorizationOptions: (enrollmentId: string, paymentId: string) =>
    bankRequest({
      operation: 'getPaymentAuthorizationOptions',
      method: 'GET',
      path: biometricsPaths.authorizationOptions(enrollmentId, paymentId),
      route: `${paymentRoute}/credentials`,
      schema: single(publicKeyOptionsSchema),
    }),

  authorizeBiometricPayment: (enrollmentId: string, paymentId: string, body: AuthorizePaymentRequest) =>
    bankRequest({
      operation: 'authorizeBiometricPayment',
      method: 'POST',
      path: biometricsPaths.authorize(enrollmentId, paymentId),
      route: `${paymentRoute}/authorize`,
      body,
      schema: single(biometricPaymentSchema),
    }),
};

import type { BankClient } from '../bank/client.js';
import type { CreateBiometricPaymentRequest } from '../bank/schemas/biometric-payment-request.js';
import type { DeviceRequest } from '../bank/schemas/device.js';
import type { CreateEnrollmentRequest } from '../bank/schemas/enrollment-request.js';
import type { AuthorizePaymentRequest, RegisterCredentialRequest } from '../bank/schemas/fido.js';
import { bankActivity } from './failures.js';

/** One activity per Pix biometrics endpoint; the enrollment and payment workflows are built from these. */
export function createBiometricsActivities(bank: BankClient) {
  return {
    findOrCreateDevice: bankActivity((request: DeviceRequest) => bank.findOrCreateDevice(request)),
    listParticipants: bankActivity((query: { device_id?: string } = {}) => bank.listParticipants(query)),
    createEnrollment: bankActivity((request: CreateEnrollmentRequest) => bank.createEnrollment(request)),
    listEnrollments: bankActivity((query: { device_id: string }) => bank.listEnrollments(query)),
    getRegistrationOptions: bankActivity((enrollmentId: string) => bank.getRegistrationOptions(enrollmentId)),
    registerCredential: bankActivity((enrollmentId: string, request: RegisterCredentialRequest) =>
      bank.registerCredential(enrollmentId, request),
    ),
    createBiometricPayment: bankActivity((enrollmentId: string, request: CreateBiometricPaymentRequest) =>
      bank.createBiometricPayment(enrollmentId, request),
    ),
    getBiometricPayment: bankActivity((enrollmentId: string, paymentId: string) =>
      bank.getBiometricPayment(enrollmentId, paymentId),
    ),
    getPaymentAuthorizationOptions: bankActivity((enrollmentId: string, paymentId: string) =>
      bank.getPaymentAuthorizationOptions(enrollmentId, paymentId),
    ),
    authorizeBiometricPayment: bankActivity(
      (enrollmentId: string, paymentId: string, request: AuthorizePaymentRequest) =>
        bank.authorizeBiometricPayment(enrollmentId, paymentId, request),
    ),
  };
}

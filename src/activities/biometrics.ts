import type { BankClient } from '../bank/client.js';
import type { CreateBiometricPaymentRequest } from '../bank/schemas/biometric-payment-request.js';
import type { CreateEnrollmentRequest } from '../bank/schemas/enrollment-request.js';
import type { AuthorizePaymentRequest, RegisterCredentialRequest } from '../bank/schemas/fido.js';
import { bankActivity } from './failures.js';

/**
 * The Pix biometrics calls the enrollment and payment workflows make. Devices and participants are read before a
 * workflow starts (the starter's findOrCreateDevice and listParticipants), so they are no activities.
 */
export function createBiometricsActivities(bank: BankClient) {
  return {
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

import { body, endpoint } from '../resource.js';
import { biometricPaymentSchema } from '../schemas/biometric-payment.js';
import type { CreateBiometricPaymentRequest } from '../schemas/biometric-payment-request.js';
import { publicKeyOptionsSchema, type AuthorizePaymentRequest } from '../schemas/fido.js';

const payment = '/banking/cashin/pix/biometrics/enrollments/{enrollment_id}/payments/{payment_id}';

/** Pix payments on an enrollment, authorized with its passkey; the payment workflow drives them. */
export const biometricPayments = {
  /** POST .../enrollments/{enrollment_id}/payments — a repeated external_id answers the first payment. */
  createBiometricPayment: endpoint({
    method: 'POST',
    route: '/banking/cashin/pix/biometrics/enrollments/{enrollment_id}/payments',
    request: body<CreateBiometricPaymentRequest>(),
    record: biometricPaymentSchema,
    answers: 'record',
    activity: true,
  }),

  /** GET .../enrollments/{enrollment_id}/payments/{payment_id} */
  getBiometricPayment: endpoint({
    method: 'GET',
    route: payment,
    record: biometricPaymentSchema,
    answers: 'record',
    activity: true,
  }),

  /** GET .../payments/{payment_id}/credentials — WebAuthn request options for the widget. */
  getPaymentAuthorizationOptions: endpoint({
    method: 'GET',
    route: `${payment}/credentials`,
    record: publicKeyOptionsSchema,
    answers: 'record',
    activity: true,
  }),

  /** POST .../payments/{payment_id}/authorize */
  authorizeBiometricPayment: endpoint({
    method: 'POST',
    route: `${payment}/authorize`,
    request: body<AuthorizePaymentRequest>(),
    record: biometricPaymentSchema,
    answers: 'record',
    activity: true,
  }),
};

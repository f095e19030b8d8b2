import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { KnownBiometricPayment } from '../../../src/bank/schemas/biometric-payment.js';
import { createBiometricPaymentRequestSchema } from '../../../src/bank/schemas/biometric-payment-request.js';
import {
  credentialId,
  findEnrollment,
  findPayment,
  notAuthorized,
  paymentNotFound,
  Refusal,
  type BiometricsContext,
} from '../biometrics/context.js';
import { awaitingConsentStatuses } from '../biometrics/lifecycle.js';
import type { EnrollmentEntry, PaymentEntry } from '../biometrics/state.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { answerRepeatedCreate } from '../repeated-create.js';
import { sandboxAuthorizeRequestSchema } from '../fido-requests.js';
import { requestOptions, verifyAssertion } from '../webauthn.js';

const paymentsPath = '/banking/cashin/pix/biometrics/enrollments/:enrollmentId/payments';

type EnrollmentParams = { Params: { enrollmentId: string } };
type PaymentParams = { Params: { enrollmentId: string; paymentId: string } };

const consentExpired = (payment: PaymentEntry) =>
  new Refusal(409, 'CONSENT_EXPIRED', `the consent window of payment ${payment.record.id} has closed`);

/** Why a payment cannot be authorized now, if it cannot; consent expiry is applied on the way. */
function authorizationRefusal(
  context: BiometricsContext,
  enrollment: EnrollmentEntry,
  payment: PaymentEntry,
): Refusal | undefined {
  if (payment.authorizeCalls.successful > 0) {
    return new Refusal(
      409,
      'PAYMENT_ALREADY_AUTHORIZED',
      `payment ${payment.record.id} was already authorized; it is ${payment.record.status}`,
    );
  }
  const unauthorized = notAuthorized(enrollment);
  if (unauthorized) return unauthorized;
  if (context.lifecycle.expireConsentIfDue(payment) || payment.consentExpired) return consentExpired(payment);
  if (!awaitingConsentStatuses.includes(payment.record.status)) {
    return new Refusal(409, 'INVALID_STATUS', `payment ${payment.record.id} is ${payment.record.status}`);
  }
  return undefined;
}

/** Payments on an authorized enrollment: create, read, authorization options and the FIDO authorization. */
export function biometricsPaymentRoutes(app: FastifyInstance, context: BiometricsContext): void {
  const biometrics = () => context.state.biometrics;

  app.post<EnrollmentParams>(paymentsPath, async (request, reply) => {
    const enrollment = findEnrollment(context, request.params.enrollmentId);
    if (enrollment instanceof Refusal) return enrollment.send(reply);
    const parsed = createBiometricPaymentRequestSchema.safeParse(request.body);
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const body = parsed.data;
    const externalId = body.external_id;
    const first =
      externalId === undefined
        ? undefined
        : biometrics().paymentByExternalId(enrollment.record.id, externalId);
    if (first && externalId !== undefined)
      return answerRepeatedCreate(reply, 'payment', externalId, first, body);

    const unauthorized = notAuthorized(enrollment);
    if (unauthorized) return unauthorized.send(reply);
    const { world } = context.state;
    if (!world.entityIds.includes(body.entity_id)) {
      return new Refusal(422, 'NOT_FOUND', 'no entity with this id in the account', '/entity_id').send(reply);
    }
    if (!world.virtualAccountIds.includes(body.virtual_account_id)) {
      return new Refusal(422, 'NOT_FOUND', 'no virtual account with this id', '/virtual_account_id').send(
        reply,
      );
    }
    const { device, participant } = biometrics().partiesOf(enrollment);
    const now = new Date();
    const record: KnownBiometricPayment = {
      id: randomUUID(),
      amount: { amount: body.amount, currency: 'BRL' },
      description: body.description,
      external_id: body.external_id ?? null,
      end_to_end_id: null,
      status: 'created',
      transaction_date: null,
      virtual_account_id: body.virtual_account_id,
      inserted_at: now.toISOString(),
      updated_at: now.toISOString(),
      entity_id: body.entity_id,
      ref_id: enrollment.record.id,
      ref_type: 'enrollment',
      participant_id: enrollment.record.participant_id,
      integration_id: participant.integration_id,
      session_id: randomUUID(),
      origin_id: enrollment.record.device_id,
      origin_type: 'device',
      counterparty_id: device.counterpartyId,
      reconciliation_id: null,
      consent_id: null,
      redirect_url: null,
    };
    const payment: PaymentEntry = {
      record,
      enrollmentId: enrollment.record.id,
      consentDeadline: now.getTime() + biometrics().settings.consentWindowMs,
      consentExpired: false,
      challenge: null,
      authorizeCalls: { successful: 0, refused: 0 },
      request: body,
    };
    context.lifecycle.openPayment(payment);
    return { data: record };
  });

  app.get<PaymentParams>(`${paymentsPath}/:paymentId`, async (request, reply) => {
    const found = findPayment(context, request.params.enrollmentId, request.params.paymentId);
    if (found instanceof Refusal) return found.send(reply);
    const { payment } = found;
    context.lifecycle.expireConsentIfDue(payment);
    const seen = context.state.reads.payment(payment.record);
    if (!seen) return paymentNotFound(found.enrollment, payment.record.id).send(reply);
    return { data: seen };
  });

  app.get<PaymentParams>(`${paymentsPath}/:paymentId/credentials`, async (request, reply) => {
    const found = findPayment(context, request.params.enrollmentId, request.params.paymentId);
    if (found instanceof Refusal) return found.send(reply);
    const { enrollment, payment } = found;
    const refusal = authorizationRefusal(context, enrollment, payment);
    if (refusal) return refusal.send(reply);
    const options = await requestOptions(context.webauthn, enrollment.credentials);
    payment.challenge = options.challenge;
    if (payment.record.status === 'created') {
      context.lifecycle.movePayment(payment, 'awaiting_consent', { consent_id: randomUUID() });
    }
    return { data: { public_key_encoded: options.publicKeyEncoded } };
  });

  app.post<PaymentParams>(`${paymentsPath}/:paymentId/authorize`, async (request, reply) => {
    const found = findPayment(context, request.params.enrollmentId, request.params.paymentId);
    if (found instanceof Refusal) return found.send(reply);
    const { enrollment, payment } = found;
    const refuse = (refusal: Refusal) => {
      payment.authorizeCalls.refused++;
      return refusal.send(reply);
    };
    const parsed = sandboxAuthorizeRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      payment.authorizeCalls.refused++;
      return sendValidationErrors(reply, zodErrorItems(parsed.error));
    }
    const refusal = authorizationRefusal(context, enrollment, payment);
    if (refusal) return refuse(refusal);
    const challenge = payment.challenge;
    if (challenge === null) {
      return refuse(
        new Refusal(
          409,
          'AUTHORIZATION_OPTIONS_NOT_REQUESTED',
          'get the authorization options (GET .../payments/{id}/credentials) before authorizing',
        ),
      );
    }
    const fido = parsed.data.fido_assertion;
    const credential = enrollment.credentials.find((candidate) => candidate.id === credentialId(fido.id));
    if (!credential) {
      return refuse(
        new Refusal(
          422,
          'UNKNOWN_CREDENTIAL',
          'no credential with this id is registered on the enrollment',
          '/fido_assertion/id',
        ),
      );
    }
    const result = await verifyAssertion(context.webauthn, challenge, credential, fido);
    if (!result.ok) {
      payment.authorizeCalls.refused++;
      return sendValidationErrors(reply, result.errors);
    }
    // A concurrent authorize may have won while this assertion was being verified: at most one succeeds.
    const late = authorizationRefusal(context, enrollment, payment);
    if (late) return refuse(late);
    credential.counter = result.newCounter;
    payment.authorizeCalls.successful++;
    context.lifecycle.acceptAuthorization(payment, biometrics().partiesOf(enrollment).participant.ispb);
    return { data: payment.record };
  });
}

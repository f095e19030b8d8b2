// The credential registration step, shared by the bank's API (called by the merchant with its credentials)
// and the hosted registration page (called from the customer's browser, as the bank's own page would).
import type { FastifyReply } from 'fastify';
import { sendValidationErrors, zodErrorItems } from '../errors.js';
import { sandboxRegisterRequestSchema } from '../fido-requests.js';
import { creationOptions, verifyRegistration } from '../webauthn.js';
import { canMoveEnrollment } from './lifecycle.js';
import { credentialId, findEnrollment, Refusal, type BiometricsContext } from './context.js';
import type { EnrollmentEntry, EnrollmentRecord } from './state.js';

function awaitingRegistration(entry: EnrollmentEntry): Refusal | undefined {
  if (canMoveEnrollment(entry, 'registration')) return undefined;
  return new Refusal(
    409,
    'INVALID_STATUS',
    `enrollment ${entry.record.id} is ${entry.record.status}; credentials are registered while it is awaiting_enrollment`,
  );
}

/** Fresh creation options; their challenge is the one the next registration must answer. */
export async function answerRegistrationOptions(
  context: BiometricsContext,
  enrollmentId: string,
  reply: FastifyReply,
): Promise<FastifyReply | { data: { public_key_encoded: string } }> {
  const entry = findEnrollment(context, enrollmentId);
  if (entry instanceof Refusal) return entry.send(reply);
  const refusal = awaitingRegistration(entry);
  if (refusal) return refusal.send(reply);
  const { device } = context.state.biometrics.partiesOf(entry);
  const holder = device.record.counterparty_name ?? 'Sandbox customer';
  const options = await creationOptions(
    context.webauthn,
    { id: entry.record.id, name: holder, displayName: holder },
    entry.credentials,
  );
  entry.registrationChallenge = options.challenge;
  return { data: { public_key_encoded: options.publicKeyEncoded } };
}

/** Verifies a register body's attestation and, when it holds, authorizes the enrollment. */
export async function answerRegistration(
  context: BiometricsContext,
  enrollmentId: string,
  body: unknown,
  reply: FastifyReply,
): Promise<FastifyReply | { data: EnrollmentRecord }> {
  const entry = findEnrollment(context, enrollmentId);
  if (entry instanceof Refusal) return entry.send(reply);
  const parsed = sandboxRegisterRequestSchema.safeParse(body);
  if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
  const refusal = awaitingRegistration(entry);
  if (refusal) return refusal.send(reply);
  const challenge = entry.registrationChallenge;
  if (challenge === null) {
    return new Refusal(
      409,
      'REGISTRATION_OPTIONS_NOT_REQUESTED',
      'get the registration options (GET /biometrics/enrollments/{id}/credentials) before registering',
    ).send(reply);
  }
  const fido = parsed.data.fido_assertion;
  const known = [...context.state.biometrics.enrollments.values()].some((other) =>
    other.credentials.some((credential) => credential.id === credentialId(fido.id)),
  );
  if (known) {
    return new Refusal(
      422,
      'CREDENTIAL_ALREADY_REGISTERED',
      'this credential is already registered',
      '/fido_assertion/id',
    ).send(reply);
  }
  const result = await verifyRegistration(context.webauthn, challenge, fido);
  if (!result.ok) return sendValidationErrors(reply, result.errors);
  // Another registration may have completed while this one was being verified.
  const late = awaitingRegistration(entry);
  if (late) return late.send(reply);
  entry.credentials.push(result.credential);
  entry.registrationChallenge = null;
  context.lifecycle.moveEnrollment(entry, 'authorized');
  return { data: entry.record };
}

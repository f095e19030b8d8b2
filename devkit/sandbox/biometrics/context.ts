import type { FastifyReply } from 'fastify';
import { uuid } from '../../../src/bank/schemas/common.js';
import { sendError } from '../errors.js';
import type { SandboxState } from '../state.js';
import type { WebhookDispatcher } from '../webhooks/dispatcher.js';
import type { WebAuthnSettings } from '../webauthn.js';
import type { BiometricsLifecycle } from './lifecycle.js';
import type { EnrollmentEntry, PaymentEntry } from './state.js';

/** What every biometrics route needs. */
export interface BiometricsContext {
  state: SandboxState;
  webhooks: WebhookDispatcher;
  webauthn: WebAuthnSettings;
  lifecycle: BiometricsLifecycle;
}

/** An answer the bank gives instead of doing what was asked, in the errors-list form. */
export class Refusal {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly message: string,
    readonly pointer = '',
  ) {}

  send(reply: FastifyReply): FastifyReply {
    return sendError(reply, this.status, this.code, this.message, this.pointer);
  }
}

/** Stored credential ids are unpadded base64url; a client may pad the id it sends. */
export const credentialId = (fidoId: string) => fidoId.replace(/=+$/, '');

/** A malformed path id gets the answer every family gives one: 400, pointing at the path parameter. */
function invalidId(name: 'enrollment_id' | 'payment_id', id: string): Refusal {
  const detail = `${name}: ${JSON.stringify(id)} must be a uuid (8-4-4-4-12 hex digits)`;
  return new Refusal(400, 'INVALID_PARAMETER', detail, `/path/${name}`);
}

export function findEnrollment(context: BiometricsContext, id: string): EnrollmentEntry | Refusal {
  if (!uuid.safeParse(id).success) return invalidId('enrollment_id', id);
  return (
    context.state.biometrics.enrollments.get(id) ??
    new Refusal(404, 'NOT_FOUND', `enrollment ${id} not found`)
  );
}

/**
 * A payment is only found under the enrollment it was created on; malformed ids are refused before any
 * lookup.
 */
export function findPayment(
  context: BiometricsContext,
  enrollmentId: string,
  id: string,
): { enrollment: EnrollmentEntry; payment: PaymentEntry } | Refusal {
  if (uuid.safeParse(enrollmentId).success && !uuid.safeParse(id).success) return invalidId('payment_id', id);
  const enrollment = findEnrollment(context, enrollmentId);
  if (enrollment instanceof Refusal) return enrollment;
  const payment = context.state.biometrics.payments.get(id);
  if (!payment || payment.enrollmentId !== enrollmentId) return paymentNotFound(enrollment, id);
  return { enrollment, payment };
}

export function paymentNotFound(enrollment: EnrollmentEntry, id: string): Refusal {
  return new Refusal(404, 'NOT_FOUND', `payment ${id} not found on enrollment ${enrollment.record.id}`);
}

export function notAuthorized(enrollment: EnrollmentEntry): Refusal | undefined {
  if (enrollment.record.status === 'authorized') return undefined;
  return new Refusal(
    409,
    'ENROLLMENT_NOT_AUTHORIZED',
    `enrollment ${enrollment.record.id} is ${enrollment.record.status}; payments need an authorized enrollment`,
  );
}

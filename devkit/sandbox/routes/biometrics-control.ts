import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accountInfoSchema, type EnrollmentStatus } from '../../../src/bank/schemas/enrollment.js';
import type { BiometricPaymentStatus } from '../../../src/bank/schemas/biometric-payment.js';
import { findEnrollment, Refusal, type BiometricsContext } from '../biometrics/context.js';
import { canMoveEnrollment, type EnrollmentMove, type PaymentOutcome } from '../biometrics/lifecycle.js';
import type { BiometricsSettings, PaymentEntry } from '../biometrics/state.js';
import { listedEnrollment } from '../biometrics/views.js';
import { sendValidationErrors, zodErrorItems } from '../errors.js';

const windowMs = z.number().int().positive();
const settingsSchema = z.strictObject({
  consent_window_ms: windowMs.optional(),
  /** null: payments wait in awaiting_payment until settled, failed or rejected here. */
  settlement_delay_ms: z.number().int().nonnegative().nullable().optional(),
  account_holder_validation_window_ms: windowMs.optional(),
  registration_window_ms: windowMs.optional(),
});

/** The customer may pick a different account at the bank than the one the merchant suggested. */
const bankAuthorizationSchema = z.strictObject({ account_info: accountInfoSchema.partial().optional() });

const enrollmentsQuerySchema = z.looseObject({
  device_id: z.string().optional(),
  status: z.string().optional(),
});
const paymentsQuerySchema = z.looseObject({
  enrollment_id: z.string().optional(),
  status: z.string().optional(),
});

const enrollmentActions: Record<string, { move: EnrollmentMove; status: EnrollmentStatus }> = {
  reject: { move: 'reject', status: 'rejected' },
  revoke: { move: 'revoke', status: 'revoked' },
  expire: { move: 'expire', status: 'inactive' },
};

const paymentActions: Record<string, { outcome: PaymentOutcome; from: BiometricPaymentStatus[] }> = {
  settle: { outcome: 'settled', from: ['awaiting_payment'] },
  fail: { outcome: 'failed', from: ['created', 'awaiting_consent', 'awaiting_payment'] },
  reject: { outcome: 'rejected', from: ['created', 'awaiting_consent', 'awaiting_payment'] },
};

function settingsView(settings: BiometricsSettings) {
  return {
    consent_window_ms: settings.consentWindowMs,
    settlement_delay_ms: settings.settlementDelayMs,
    account_holder_validation_window_ms: settings.accountHolderValidationWindowMs,
    registration_window_ms: settings.registrationWindowMs,
  };
}

const authorizeCallsView = (payment: PaymentEntry) => ({
  payment_id: payment.record.id,
  enrollment_id: payment.enrollmentId,
  ...payment.authorizeCalls,
});

function invalidMove(kind: string, id: string, status: string, action: string): Refusal {
  return new Refusal(409, 'INVALID_STATUS', `${kind} ${id} is ${status}; it cannot ${action}`);
}

/**
 * The bank's side of Pix biometrics: the customer at the bank, the bank's answers, its clocks, and audit
 * views.
 */
export function biometricsControlRoutes(app: FastifyInstance, context: BiometricsContext): void {
  const biometrics = () => context.state.biometrics;
  const prefix = '/sandbox/biometrics';

  app.get(`${prefix}/settings`, async () => ({ data: settingsView(biometrics().settings) }));

  app.put(`${prefix}/settings`, async (request, reply) => {
    const parsed = settingsSchema.safeParse(request.body ?? {});
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const changes = parsed.data;
    const { settings } = biometrics();
    settings.consentWindowMs = changes.consent_window_ms ?? settings.consentWindowMs;
    settings.accountHolderValidationWindowMs =
      changes.account_holder_validation_window_ms ?? settings.accountHolderValidationWindowMs;
    settings.registrationWindowMs = changes.registration_window_ms ?? settings.registrationWindowMs;
    if (changes.settlement_delay_ms !== undefined) settings.settlementDelayMs = changes.settlement_delay_ms;
    return { data: settingsView(settings) };
  });

  app.get(`${prefix}/enrollments`, async (request, reply) => {
    const parsed = enrollmentsQuerySchema.safeParse(request.query);
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const query = parsed.data;
    const entries = [...biometrics().enrollments.values()].filter(
      (entry) =>
        (!query.device_id || entry.record.device_id === query.device_id) &&
        (!query.status || entry.record.status === query.status),
    );
    return { data: entries.map((entry) => listedEnrollment(biometrics(), entry)) };
  });

  app.post<{ Params: { enrollmentId: string } }>(
    `${prefix}/enrollments/:enrollmentId/bank-authorization`,
    async (request, reply) => {
      const entry = findEnrollment(context, request.params.enrollmentId);
      if (entry instanceof Refusal) return entry.send(reply);
      const parsed = bankAuthorizationSchema.safeParse(request.body ?? {});
      if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
      if (!canMoveEnrollment(entry, 'bankAuthorization')) {
        return invalidMove(
          'enrollment',
          entry.record.id,
          entry.record.status,
          'be authorized at the bank',
        ).send(reply);
      }
      const account = { ...entry.record.account_info, ...parsed.data.account_info };
      context.lifecycle.moveEnrollment(entry, 'awaiting_enrollment', { account_info: account });
      return { data: entry.record };
    },
  );

  app.post<{ Params: { enrollmentId: string; action: string } }>(
    `${prefix}/enrollments/:enrollmentId/:action`,
    async (request, reply) => {
      const action = enrollmentActions[request.params.action];
      if (!action) {
        return new Refusal(404, 'NOT_FOUND', `unknown enrollment action ${request.params.action}`).send(
          reply,
        );
      }
      const entry = findEnrollment(context, request.params.enrollmentId);
      if (entry instanceof Refusal) return entry.send(reply);
      if (!canMoveEnrollment(entry, action.move)) {
        return invalidMove('enrollment', entry.record.id, entry.record.status, request.params.action).send(
          reply,
        );
      }
      context.lifecycle.moveEnrollment(entry, action.status);
      return { data: entry.record };
    },
  );

  app.get(`${prefix}/payments`, async (request, reply) => {
    const parsed = paymentsQuerySchema.safeParse(request.query);
    if (!parsed.success) return sendValidationErrors(reply, zodErrorItems(parsed.error));
    const query = parsed.data;
    const entries = [...biometrics().payments.values()].filter(
      (entry) =>
        (!query.enrollment_id || entry.enrollmentId === query.enrollment_id) &&
        (!query.status || entry.record.status === query.status),
    );
    return { data: entries.map((entry) => entry.record) };
  });

  app.get(`${prefix}/authorize-calls`, async () => ({
    data: [...biometrics().payments.values()].map(authorizeCallsView),
  }));

  app.get<{ Params: { paymentId: string } }>(
    `${prefix}/payments/:paymentId/authorize-calls`,
    async (request, reply) => {
      const payment = biometrics().payments.get(request.params.paymentId);
      if (!payment)
        return new Refusal(404, 'NOT_FOUND', `payment ${request.params.paymentId} not found`).send(reply);
      return { data: authorizeCallsView(payment) };
    },
  );

  app.post<{ Params: { paymentId: string; action: string } }>(
    `${prefix}/payments/:paymentId/:action`,
    async (request, reply) => {
      const action = paymentActions[request.params.action];
      if (!action) {
        return new Refusal(404, 'NOT_FOUND', `unknown payment action ${request.params.action}`).send(reply);
      }
      const payment = biometrics().payments.get(request.params.paymentId);
      if (!payment)
        return new Refusal(404, 'NOT_FOUND', `payment ${request.params.paymentId} not found`).send(reply);
      if (!action.from.includes(payment.record.status)) {
        return invalidMove('payment', payment.record.id, payment.record.status, request.params.action).send(
          reply,
        );
      }
      context.lifecycle.finishPayment(payment, action.outcome);
      return { data: payment.record };
    },
  );
}

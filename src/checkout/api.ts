import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deviceRequestSchema } from '../bank/schemas/device.js';
import { authorizeFidoAssertionSchema } from '../bank/schemas/fido.js';
import {
  authorizePayment,
  findOrCreateDevice,
  getAuthorizationOptions,
  getEnrollment,
  listParticipants,
  startEnrollment,
  startPayment,
  waitForPaymentResult,
  type BankReadContext,
  type StarterContext,
} from '../starter/index.js';
import { parseInput } from '../starter/errors.js';

/** The merchant's own account, which receives the payments. */
export interface MerchantAccount {
  entityId: string;
  virtualAccountId: string;
}

export interface CheckoutApiDeps {
  starter: StarterContext;
  bank: BankReadContext;
  merchant: MerchantAccount;
  widgetUrl: string;
}

const enrollmentKey = z.object({ deviceId: z.string(), participantId: z.string() });
const paymentRequest = z.object({
  deviceId: z.string(),
  enrollmentId: z.string(),
  amountCents: z.number(),
  description: z.string(),
});
const paymentKey = z.object({ externalId: z.string() });
const authorizationRequest = z.object({ assertion: authorizeFidoAssertionSchema });

/** Where the bank sends the customer back: this page, told which enrollment to follow. */
function returnToUrl(request: FastifyRequest, participantId: string): string {
  const url = new URL('/', `${request.protocol}://${request.host}`);
  url.searchParams.set('enrolled', participantId);
  return url.toString();
}

/**
 * The merchant backend of the reference checkout: each route is one call to bankflow's starter functions, the
 * calls a real merchant backend makes. The customer's browser never talks to the bank's API.
 */
export function checkoutApiRoutes(app: FastifyInstance, deps: CheckoutApiDeps): void {
  const { starter, bank, merchant } = deps;

  app.get('/api/config', async () => ({ widgetUrl: deps.widgetUrl }));

  app.post('/api/device', async (request) => {
    const device = await findOrCreateDevice(bank, parseInput(deviceRequestSchema, request.body));
    return { deviceId: device.id };
  });

  app.get<{ Querystring: { deviceId?: string } }>('/api/participants', async (request) => {
    const participants = await listParticipants(bank, { deviceId: request.query.deviceId });
    return participants.map((participant) => ({
      id: participant.id,
      name: participant.name,
      available: participant.is_enrollment_available && !participant.unavailable,
      enrolled: participant['enrolled?'] === true,
      enrollmentId: participant.enrollment?.id ?? null,
    }));
  });

  app.post('/api/enrollments', async (request) => {
    const key = parseInput(enrollmentKey, request.body);
    const started = await startEnrollment(starter, {
      ...key,
      returnToUrl: returnToUrl(request, key.participantId),
    });
    return { enrollmentId: started.enrollmentId, redirectUrl: started.redirectUrl };
  });

  app.get('/api/enrollment', async (request) => {
    const state = await getEnrollment(starter, parseInput(enrollmentKey, request.query));
    return { phase: state.phase, reason: state.reason ?? null, enrollmentId: state.enrollmentId ?? null };
  });

  app.post('/api/payments', async (request) => {
    const order = parseInput(paymentRequest, request.body);
    const created = await startPayment(starter, { ...order, ...merchant });
    return {
      externalId: created.externalId,
      status: created.payment.status,
      publicKeyEncoded: created.publicKeyEncoded,
    };
  });

  app.post<{ Params: { externalId: string } }>('/api/payments/:externalId/options', async (request) => ({
    publicKeyEncoded: await getAuthorizationOptions(starter, parseInput(paymentKey, request.params)),
  }));

  app.post<{ Params: { externalId: string } }>('/api/payments/:externalId/authorize', async (request) => {
    const { assertion } = parseInput(authorizationRequest, request.body);
    return authorizePayment(starter, { ...parseInput(paymentKey, request.params), assertion });
  });

  app.get<{ Params: { externalId: string } }>('/api/payments/:externalId', async (request) => {
    const result = await waitForPaymentResult(starter, parseInput(paymentKey, request.params));
    return {
      outcome: result.outcome,
      status: result.status,
      endToEndId: result.endToEndId,
      transactionDate: result.transactionDate,
      reason: result.reason,
    };
  });
}

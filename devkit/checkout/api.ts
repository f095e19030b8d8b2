import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { deviceRequestSchema } from '../../src/bank/schemas/device.js';
import { authorizeFidoAssertionSchema } from '../../src/bank/schemas/fido.js';
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
} from '../../src/starter/index.js';
import { InvalidInputError, parseInput } from '../../src/starter/errors.js';
import { demoOrder, findOrder } from './orders.js';
import { ownPayment, sessionDevice, type Sessions } from './session.js';

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
  sessions: Sessions;
  /** Where customers reach this checkout (CHECKOUT_PUBLIC_URL): the bank sends them back there. */
  publicUrl: () => URL;
}

/** A member the browser must not send at all. */
function notFromBrowser(reason: string) {
  return z.never({ error: `must not be sent: ${reason}` }).optional();
}

/** The device's characteristics a browser can tell about itself; nothing else of a device request. */
const browserDeviceFields = deviceRequestSchema.pick({
  fingerprint: true,
  os: true,
  os_version: true,
  language: true,
  screen_width: true,
  screen_height: true,
  timezone_offset: true,
}).shape;

/**
 * What the browser may say about itself. Who the customer is comes from the session: a body naming a tax
 * number or a name is refused, not silently corrected, so a tampered page shows up in the answer. Any other
 * member (the account's tenure, which is the merchant's to know, or anything the bank's API may take one day)
 * is refused by name rather than dropped or passed on to the bank.
 */
const customerFields = {
  counterparty_tax_number: notFromBrowser('the customer comes from the checkout session'),
  counterparty_name: notFromBrowser('the customer comes from the checkout session'),
};
const browserDevice = z
  .looseObject({ ...browserDeviceFields, ...customerFields })
  .superRefine((body, ctx) => {
    for (const key of Object.keys(body)) {
      if (key in browserDeviceFields || key in customerFields) continue;
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `is not a device field the page may send (${Object.keys(browserDeviceFields).join(', ')})`,
      });
    }
  });
const enrollmentKey = z.object({ participantId: z.string() });
/**
 * An order id and the enrollment to pay with: the price, the description and the device are the backend's.
 */
const paymentRequest = z.strictObject({
  orderId: z.string(),
  enrollmentId: z.string(),
  amountCents: notFromBrowser('the price comes from the order'),
  description: notFromBrowser('the description comes from the order'),
  deviceId: notFromBrowser("the device is the checkout session's"),
});
const paymentKey = z.object({ externalId: z.string() });
const authorizationRequest = z.object({ assertion: authorizeFidoAssertionSchema });

/**
 * Where the bank sends the customer back: this page at its configured address, told which enrollment to
 * follow; never an address taken from the request, whose Host header the sender chooses.
 */
function returnToUrl(publicUrl: URL, participantId: string): string {
  const url = new URL(publicUrl);
  url.searchParams.set('enrolled', participantId);
  return url.toString();
}

/**
 * The merchant backend of the reference checkout: each route is one call to bankflow's starter functions, the
 * calls a real merchant backend makes. The customer's browser never talks to the bank's API, and never
 * decides the price (the order is the backend's) nor who the customer is (the session's).
 */
export function checkoutApiRoutes(app: FastifyInstance, deps: CheckoutApiDeps): void {
  const { starter, bank, merchant, sessions } = deps;
  /** The payment a route names, when this session started it. */
  const owned = (request: FastifyRequest) => {
    const { externalId } = parseInput(paymentKey, request.params);
    return { externalId: ownPayment(sessions.of(request), externalId) };
  };

  app.get('/api/config', async (request) => ({
    widgetUrl: deps.widgetUrl,
    customer: { name: sessions.of(request).customer.name },
    order: demoOrder,
  }));

  app.post('/api/device', async (request) => {
    const session = sessions.of(request);
    const browser = parseInput(browserDevice, request.body);
    const device = await findOrCreateDevice(bank, {
      ...browser,
      counterparty_tax_number: session.customer.taxNumber,
      counterparty_name: session.customer.name,
    });
    session.deviceId = device.id;
    return { deviceId: device.id };
  });

  app.get('/api/participants', async (request) => {
    const participants = await listParticipants(bank, { deviceId: sessionDevice(sessions.of(request)) });
    return participants.map((participant) => ({
      id: participant.id,
      name: participant.name,
      available: participant.is_enrollment_available && !participant.unavailable,
      enrolled: participant['enrolled?'] === true,
      enrollmentId: participant.enrollment?.id ?? null,
    }));
  });

  app.post('/api/enrollments', async (request) => {
    const { participantId } = parseInput(enrollmentKey, request.body);
    const started = await startEnrollment(starter, {
      deviceId: sessionDevice(sessions.of(request)),
      participantId,
      returnToUrl: returnToUrl(deps.publicUrl(), participantId),
    });
    return { enrollmentId: started.enrollmentId, redirectUrl: started.redirectUrl };
  });

  app.get('/api/enrollment', async (request) => {
    const { participantId } = parseInput(enrollmentKey, request.query);
    const deviceId = sessionDevice(sessions.of(request));
    const state = await getEnrollment(starter, { deviceId, participantId });
    return { phase: state.phase, reason: state.reason ?? null, enrollmentId: state.enrollmentId ?? null };
  });

  app.post('/api/payments', async (request) => {
    const session = sessions.of(request);
    const { orderId, enrollmentId } = parseInput(paymentRequest, request.body);
    const order = findOrder(orderId);
    if (!order) throw new InvalidInputError('orderId', `no order ${orderId} in this shop`);
    const created = await startPayment(starter, {
      deviceId: sessionDevice(session),
      enrollmentId,
      amountCents: order.amountCents,
      description: order.description,
      ...merchant,
    });
    session.externalIds.add(created.externalId);
    return {
      externalId: created.externalId,
      status: created.payment.status,
      amountCents: order.amountCents,
      publicKeyEncoded: created.publicKeyEncoded,
    };
  });

  app.post<{ Params: { externalId: string } }>('/api/payments/:externalId/options', async (request) => ({
    publicKeyEncoded: await getAuthorizationOptions(starter, owned(request)),
  }));

  app.post<{ Params: { externalId: string } }>('/api/payments/:externalId/authorize', async (request) => {
    const { assertion } = parseInput(authorizationRequest, request.body);
    return authorizePayment(starter, { ...owned(request), assertion });
  });

  app.get<{ Params: { externalId: string } }>('/api/payments/:externalId', async (request) => {
    const result = await waitForPaymentResult(starter, owned(request));
    return {
      outcome: result.outcome,
      status: result.status,
      endToEndId: result.endToEndId,
      transactionDate: result.transactionDate,
      reason: result.reason,
    };
  });
}

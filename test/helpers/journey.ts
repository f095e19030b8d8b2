import { randomUUID } from 'node:crypto';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { BankClient } from '../../src/bank/client.js';
import type { EnrollmentPhase } from '../../src/contract/enrollment.js';
import {
  authorizePayment,
  findOrCreateDevice,
  getEnrollment,
  getRegistrationOptions,
  listParticipants,
  registerCredential,
  waitForEnrollment,
  waitForPaymentResult,
} from '../../src/starter/index.js';
import { startTunedEnrollment } from '../../src/starter/enrollments.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import type { TestStack } from './stack.js';

/** Fast polling so tests that drop every webhook finish in seconds on the dev server (see PaymentTuning). */
export const fastPolling = { firstPollAfterMs: 500, maxPollIntervalMs: 1_000 };

export function bankFor(stack: TestStack): BankClient {
  return new BankClient(stack.bank, stack.logger);
}

/** Plays the bank's side through the sandbox's control API, over HTTP. */
export async function control(
  stack: TestStack,
  method: 'GET' | 'POST' | 'PUT',
  path: string,
  body?: unknown,
) {
  const response = await fetch(`${stack.sandbox.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data?: unknown };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json.data as Record<string, unknown>;
}

export async function eventually<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface Customer {
  deviceId: string;
  participantId: string;
  authenticator: SoftwareAuthenticator;
}

/** A new device (unique fingerprint) and a participant open for enrollment. */
export async function newCustomer(stack: TestStack): Promise<Customer> {
  const ctx = { bank: bankFor(stack) };
  const device = await findOrCreateDevice(ctx, {
    fingerprint: `fp-${randomUUID()}`,
    counterparty_tax_number: '12345678909',
    counterparty_name: 'Maria Silva',
  });
  const participants = await listParticipants(ctx, { deviceId: device.id });
  const participant = participants.find((p) => p.is_enrollment_available && !p.unavailable);
  if (!participant) throw new Error('the sandbox has no participant open for enrollment');
  return {
    deviceId: device.id,
    participantId: participant.id,
    authenticator: SoftwareAuthenticator.create(),
  };
}

export const keyOf = (customer: Customer) => ({
  deviceId: customer.deviceId,
  participantId: customer.participantId,
});

export async function waitForPhase(stack: TestStack, customer: Customer, phase: EnrollmentPhase) {
  return eventually(
    () => getEnrollment(stack, keyOf(customer)),
    (state) => state.phase === phase,
  );
}

/** The whole enrollment journey through bankflow, with the customer's device played by the authenticator. */
export async function enroll(
  stack: TestStack,
  customer: Customer,
  options: { polling?: typeof fastPolling; customerTaxNumber?: string; maxRunMs?: number } = {},
) {
  const started = await startTunedEnrollment(
    stack,
    {
      ...keyOf(customer),
      returnToUrl: 'https://merchant.example/enrolled',
      customerTaxNumber: options.customerTaxNumber,
    },
    { polling: options.polling, maxRunMs: options.maxRunMs },
  );
  await control(
    stack,
    'POST',
    `/sandbox/biometrics/enrollments/${started.enrollmentId}/bank-authorization`,
    {},
  );
  // The options request waits in the workflow until the bank's authorization reached it.
  const options_ = await getRegistrationOptions(stack, keyOf(customer));
  const registered = await registerCredential(stack, {
    ...keyOf(customer),
    assertion: customer.authenticator.createCredential(options_, stack.sandbox.url),
  });
  const result = await waitForEnrollment(stack, keyOf(customer));
  return { started, registered, result };
}

export function world(stack: TestStack) {
  const { entityIds, virtualAccountIds } = stack.sandbox.state.world;
  return { entityId: entityIds[0] ?? '', virtualAccountId: virtualAccountIds[0] ?? '' };
}

/**
 * A whole Pix payment on an authorized enrollment: start, the customer's assertion, and the result, asserted
 * settled. Answers what a test needs to look for afterwards.
 */
export async function payAndSettle(
  stack: TestStack,
  customer: Customer,
  payment: {
    externalId: string;
    enrollmentId: string;
    amountCents: number;
    description: string;
    customerTaxNumber?: string;
  },
) {
  const created = await startTunedPayment(
    stack,
    { ...payment, deviceId: customer.deviceId, ...world(stack) },
    { cashInWaitMs: 2_000 },
  );
  const assertion = customer.authenticator.getAssertion(created.publicKeyEncoded, stack.sandbox.url);
  await authorizePayment(stack, { externalId: payment.externalId, assertion });
  const result = await waitForPaymentResult(stack, { externalId: payment.externalId });
  if (result.outcome !== 'settled') throw new Error(`the payment ended ${result.outcome}: ${result.reason}`);
  return { created, assertion, result };
}

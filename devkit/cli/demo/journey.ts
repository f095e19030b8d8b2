import { randomInt, randomUUID } from 'node:crypto';
import { SoftwareAuthenticator } from '../../authenticator/software-authenticator.js';
import { fidoCreationOptionsSchema } from '../../../src/bank/schemas/fido.js';
import { formatReais } from '../../../src/money.js';
import {
  authorizePayment,
  findOrCreateDevice,
  getEnrollment,
  getRegistrationOptions,
  listParticipants,
  registerCredential,
  startEnrollment,
  startPayment,
  waitForEnrollment,
  waitForPaymentResult,
  type BankReadContext,
  type StarterContext,
} from '../../../src/starter/index.js';
import type { PaymentResult } from '../../../src/contract/payment.js';
import { eventually } from './eventually.js';
import { sandboxControl } from './sandbox-control.js';
import type { StepPrinter } from './steps.js';

export interface DemoOptions {
  starter: StarterContext;
  bank: BankReadContext;
  /**
   * The sandbox bank: its control API plays the bank's side, and its pages are the origin WebAuthn trusts.
   */
  sandboxUrl: string;
  /** The control API's token (SANDBOX_CONTROL_TOKEN, or the running stack's token file). */
  sandboxToken: string | undefined;
  amountCents: number;
  steps: StepPrinter;
  /** Called with each workflow the journey starts, e.g. to print its Temporal UI link. */
  onWorkflow: (workflowId: string) => void;
}

export const demoStepCount = 10;

/**
 * The whole Pix biometrics journey, as a merchant backend, its customer's device (a software authenticator)
 * and the customer at the bank (the sandbox's control API) would play it. Every run is a new customer, so the
 * demo can run again and again against the same stack.
 */
export async function runDemoJourney(options: DemoOptions): Promise<PaymentResult> {
  const { starter, bank, steps } = options;
  const control = sandboxControl(options.sandboxUrl, options.sandboxToken);
  const authenticator = SoftwareAuthenticator.create();
  const origin = options.sandboxUrl;
  const customerTaxNumber = String(randomInt(10_000_000_000, 99_999_999_999));

  const device = await steps.step(
    'find or create the device',
    () =>
      findOrCreateDevice(bank, {
        fingerprint: `demo-${randomUUID()}`,
        counterparty_tax_number: customerTaxNumber,
        counterparty_name: 'Demo Customer',
      }),
    (found) => `device ${found.id}`,
  );

  const participant = await steps.step(
    'list the participants',
    async () => {
      const listed = await listParticipants(bank, { deviceId: device.id });
      const available = listed.filter((p) => p.is_enrollment_available && !p.unavailable && !p['enrolled?']);
      if (!available[0]) throw new Error(`none of the ${listed.length} participants accepts enrollments`);
      return { chosen: available[0], available: available.length, listed: listed.length };
    },
    ({ chosen, available, listed }) =>
      `${listed} listed, ${available} open to enrollment; enrolling with ${chosen.name} (ISPB ${chosen.ispb})`,
  );
  const key = { deviceId: device.id, participantId: participant.chosen.id };

  const enrollment = await steps.step(
    'start the enrollment',
    () =>
      startEnrollment(starter, {
        ...key,
        returnToUrl: 'https://merchant.example.com/pix/enrolled',
        customerTaxNumber,
      }),
    (started) => `enrollment ${started.enrollmentId} ${started.status}`,
  );
  options.onWorkflow(enrollment.workflowId);

  await steps.step(
    'customer authorizes at the bank',
    async () => {
      await control.authorizeAtBank(enrollment.enrollmentId);
      const state = await eventually(
        'the enrollment workflow to hear of the bank authorization',
        async () => {
          const current = await getEnrollment(starter, key);
          return current.phase === 'awaiting_account_holder_validation' ? undefined : current;
        },
        { timeoutMs: 90_000 },
      );
      if (state.phase !== 'awaiting_enrollment')
        throw new Error(`the enrollment is ${state.phase}: ${state.reason}`);
      return state;
    },
    (state) =>
      `the workflow sees ${state.phase} (webhooks: ${state.webhooksReceived}, polls: ${state.polls})`,
  );

  const creationOptions = await steps.step(
    'get the registration options',
    () => getRegistrationOptions(starter, key),
    (encoded) => {
      const parsed = fidoCreationOptionsSchema.parse(JSON.parse(encoded));
      return `WebAuthn creation options for RP ${parsed.rp.id ?? parsed.rp.name}, user ${parsed.user.name}`;
    },
  );

  await steps.step(
    'register the credential',
    async () => {
      const assertion = authenticator.createCredential(creationOptions, origin);
      const result = await registerCredential(starter, { ...key, assertion });
      if (!result.ok) throw new Error(`the bank refused the credential: ${result.reason}`);
      return result;
    },
    (result) => `the bank answers ${result.status}`,
  );

  await steps.step(
    'wait for the enrollment',
    async () => {
      const result = await waitForEnrollment(starter, key);
      if (result.outcome !== 'authorized')
        throw new Error(`the enrollment ended ${result.outcome}: ${result.reason}`);
      return result;
    },
    (result) => `${result.outcome}: ${result.reason}`,
  );

  const payment = await steps.step(
    'start the payment',
    async () => {
      const world = await control.world();
      return startPayment(starter, {
        externalId: `demo-${randomUUID()}`,
        enrollmentId: enrollment.enrollmentId,
        deviceId: device.id,
        amountCents: options.amountCents,
        description: 'bankflow demo',
        entityId: world.entityIds[0] ?? '',
        virtualAccountId: world.virtualAccountIds[0] ?? '',
        customerTaxNumber,
      });
    },
    (created) =>
      `payment ${created.payment.id} of ${formatReais(options.amountCents)} ${created.payment.status}`,
  );
  options.onWorkflow(payment.workflowId);

  await steps.step(
    'authorize with an assertion',
    async () => {
      const assertion = authenticator.getAssertion(payment.publicKeyEncoded, origin);
      const result = await authorizePayment(starter, { externalId: payment.externalId, assertion });
      if (!result.ok) throw new Error(`the bank refused the assertion: ${result.reason}`);
      return result;
    },
    (result) => `the bank answers ${result.status}`,
  );

  return steps.step(
    'wait for the payment result',
    () => waitForPaymentResult(starter, { externalId: payment.externalId }),
    (result) =>
      `${result.outcome}, end-to-end id ${result.endToEndId ?? '-'}; evidence: ${[
        ...new Set(result.evidence.map((item) => item.source)),
      ].join(', ')}`,
  );
}

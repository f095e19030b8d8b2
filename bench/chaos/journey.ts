import { setTimeout as sleep } from 'node:timers/promises';
import {
  authorizePayment,
  findOrCreateDevice,
  getAuthorizationOptions,
  getEnrollment,
  getPayment,
  getRegistrationOptions,
  listParticipants,
  registerCredential,
  RequestRefusedError,
  waitForEnrollment,
  waitForPaymentResult,
  type BankReadContext,
  type StarterContext,
} from '../../src/starter/index.js';
import type { EnrollmentOutcome, EnrollmentPhase } from '../../src/contract/enrollment.js';
import type { PaymentOutcome, PaymentPhase } from '../../src/contract/payment.js';
import { CustomerDevice } from './device.js';
import type { MerchantCalls } from './merchant.js';
import type { JourneyKind, JourneySpec } from './plan.js';
import { startTunedEnrollment } from '../../src/starter/enrollments.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import { cashInWaitMs, journeyPolling } from './profile.js';
import type { SandboxControl } from './sandbox-control.js';

export interface JourneyContext {
  starter: StarterContext;
  bank: BankReadContext;
  retries: MerchantCalls;
  control: SandboxControl;
  /** The sandbox's address: the origin the customer's device signs for. */
  origin: string;
  merchant: { entityId: string; virtualAccountId: string };
}

/** What one journey did and where it ended, as the merchant saw it. */
export interface JourneyRecord {
  index: number;
  kind: JourneyKind;
  externalId: string;
  deviceId?: string;
  participantId?: string;
  enrollmentId?: string;
  enrollmentOutcome?: EnrollmentOutcome;
  paymentStarted: boolean;
  paymentId?: string;
  paymentOutcome?: PaymentOutcome;
  /** Submissions of a credential / an assertion, first tries included. */
  registrations: number;
  authorizations: number;
  /** Calls the workflow turned away, resolved by reading its state. */
  turnedAway: number;
  /** From the journey's start to its outcome (or its failure). */
  durationMs?: number;
  /** Every merchant call, retries included, in ms from the journey's start: where the time went. */
  calls: { operation: string; fromMs: number; toMs: number }[];
  error?: string;
}

/**
 * The error and its causes, e.g. `WorkflowFailedError: Workflow execution failed <- ApplicationFailure: ...`.
 */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error; current && parts.length < 4; current = (current as Error).cause) {
    parts.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current));
  }
  return parts.join(' <- ');
}

/** Refusals by the bank (a stale challenge, say) a journey answers with a fresh credential or assertion. */
const maxRefusals = 5;
/** How long a journey keeps submitting while the workflow still waits for a credential or an assertion. */
const decisionBudgetMs = 4 * 60_000;

const waitingForConsent: PaymentPhase[] = ['checking_enrollment', 'creating', 'created', 'awaiting_consent'];

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await sleep(300);
  }
}

export function newJourneyRecord(spec: JourneySpec): JourneyRecord {
  return {
    index: spec.index,
    kind: spec.kind,
    externalId: spec.externalId,
    paymentStarted: false,
    registrations: 0,
    authorizations: 0,
    turnedAway: 0,
    calls: [],
  };
}

/**
 * One customer, start to finish, the way a merchant backend drives it through bankflow's starter functions:
 * device and participant, enrollment (the customer authorizes or refuses at the bank, then registers a
 * credential), payment (authorization options, assertion) and the outcome. Every call goes through the
 * merchant's retries; a submission whose fate is unknown is resolved by reading the workflow's state.
 */
export async function runJourney(
  ctx: JourneyContext,
  spec: JourneySpec,
  record: JourneyRecord,
): Promise<void> {
  const device = new CustomerDevice(ctx.origin);
  const startedAt = Date.now();
  const since = () => Date.now() - startedAt;
  const traced: JourneyContext = {
    ...ctx,
    retries: {
      call: (operation, run, budgetMs) => {
        const fromMs = since();
        return ctx.retries
          .call(operation, run, budgetMs)
          .finally(() => record.calls.push({ operation, fromMs, toMs: since() }));
      },
    },
  };
  try {
    await enroll(traced, spec, record, device);
    if (record.enrollmentOutcome === 'authorized') await pay(traced, spec, record, device);
  } catch (error) {
    record.error = describeError(error);
  }
  record.durationMs = Date.now() - startedAt;
}

async function enroll(
  ctx: JourneyContext,
  spec: JourneySpec,
  record: JourneyRecord,
  device: CustomerDevice,
): Promise<void> {
  const { retries, starter } = ctx;
  const bankDevice = await retries.call('findOrCreateDevice', () =>
    findOrCreateDevice(ctx.bank, {
      fingerprint: spec.fingerprint,
      counterparty_tax_number: '12345678909',
      counterparty_name: 'Maria Silva',
    }),
  );
  const participants = await retries.call('listParticipants', () =>
    listParticipants(ctx.bank, { deviceId: bankDevice.id }),
  );
  const participant = participants.find((p) => p.is_enrollment_available && !p.unavailable);
  if (!participant) throw new Error('the bank lists no participant open for enrollment');
  const key = { deviceId: bankDevice.id, participantId: participant.id };
  record.deviceId = bankDevice.id;
  record.participantId = participant.id;

  const started = await retries.call('startEnrollment', () =>
    startTunedEnrollment(
      starter,
      {
        ...key,
        returnToUrl: 'https://merchant.example/enrolled',
        externalId: `chaos-enrollment-${spec.fingerprint}`,
      },
      { polling: journeyPolling },
    ),
  );
  record.enrollmentId = started.enrollmentId;
  const customerAnswer = spec.kind === 'enrollment-refused' ? 'reject' : 'bank-authorization';
  await ctx.control.post(`/sandbox/biometrics/enrollments/${started.enrollmentId}/${customerAnswer}`, {});

  if (spec.kind !== 'enrollment-refused') {
    const phase = async () => (await retries.call('getEnrollment', () => getEnrollment(starter, key))).phase;
    const reached = await until(
      phase,
      (current) => current !== 'awaiting_account_holder_validation',
      120_000,
    );
    if (reached === 'awaiting_enrollment') await registerDevice(ctx, key, record, device, phase);
  }
  const result = await retries.call('waitForEnrollment', () => waitForEnrollment(starter, key));
  record.enrollmentOutcome = result.outcome;
}

/**
 * Submits a credential or an assertion until the workflow no longer waits for one. A refusal by the bank is
 * answered with fresh options and a new credential or assertion. A call the workflow turns away (a submission
 * is already in progress, the flow moved on, or the workflow has not caught up with what a query already
 * showed) is resolved by reading the workflow's state: an earlier submission may still be on its way to the
 * bank.
 */
async function submitUntilDecided<T>(
  record: JourneyRecord,
  steps: {
    first: () => Promise<T>;
    fresh: () => Promise<T>;
    submit: (value: T) => Promise<boolean>;
    waiting: () => Promise<boolean>;
    onSubmit: () => void;
  },
): Promise<void> {
  const deadline = Date.now() + decisionBudgetMs;
  let value: T | undefined;
  let refusals = 0;
  while (Date.now() < deadline) {
    try {
      value ??= refusals === 0 ? await steps.first() : await steps.fresh();
      steps.onSubmit();
      if (await steps.submit(value)) return;
      value = undefined;
      if (++refusals >= maxRefusals) throw new Error(`the bank refused ${refusals} submissions`);
    } catch (error) {
      if (!(error instanceof RequestRefusedError)) throw error;
      record.turnedAway++;
      if (!(await until(steps.waiting, (waiting) => !waiting, 10_000))) return;
    }
  }
  throw new Error(`the workflow still waited for a submission after ${decisionBudgetMs / 60_000} minutes`);
}

async function registerDevice(
  ctx: JourneyContext,
  key: { deviceId: string; participantId: string },
  record: JourneyRecord,
  device: CustomerDevice,
  phase: () => Promise<EnrollmentPhase>,
): Promise<void> {
  const { retries, starter } = ctx;
  const fresh = async () =>
    device.createCredential(
      await retries.call('getRegistrationOptions', () => getRegistrationOptions(starter, key)),
    );
  await submitUntilDecided(record, {
    first: fresh,
    fresh,
    submit: async (assertion) =>
      (await retries.call('registerCredential', () => registerCredential(starter, { ...key, assertion }))).ok,
    waiting: async () => (await phase()) === 'awaiting_enrollment',
    onSubmit: () => record.registrations++,
  });
}

async function pay(
  ctx: JourneyContext,
  spec: JourneySpec,
  record: JourneyRecord,
  device: CustomerDevice,
): Promise<void> {
  const { retries, starter } = ctx;
  const payment = { externalId: spec.externalId };
  record.paymentStarted = true;
  const created = await retries.call('startPayment', () =>
    startTunedPayment(
      starter,
      {
        externalId: spec.externalId,
        enrollmentId: record.enrollmentId ?? '',
        deviceId: record.deviceId ?? '',
        amountCents: spec.amountCents,
        description: `Pedido ${spec.index + 1}`,
        ...ctx.merchant,
      },
      { cashInWaitMs, polling: journeyPolling },
    ),
  );
  record.paymentId = created.payment.id;

  await submitUntilDecided(record, {
    first: async () => device.getAssertion(created.publicKeyEncoded),
    fresh: async () =>
      device.getAssertion(
        await retries.call('getAuthorizationOptions', () => getAuthorizationOptions(starter, payment)),
      ),
    submit: async (assertion) =>
      (await retries.call('authorizePayment', () => authorizePayment(starter, { ...payment, assertion }))).ok,
    waiting: async () =>
      waitingForConsent.includes(
        (await retries.call('getPayment', () => getPayment(starter, payment))).phase,
      ),
    onSubmit: () => record.authorizations++,
  });
  const result = await retries.call('waitForPaymentResult', () => waitForPaymentResult(starter, payment));
  record.paymentOutcome = result.outcome;
}

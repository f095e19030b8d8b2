import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { uuid } from '../bank/schemas/common.js';
import { printableOnly } from '../bank/schemas/printable.js';
import { pixText } from '../bank/schemas/text.js';
import { authorizeFidoAssertionSchema, type AuthorizeFidoAssertion } from '../bank/schemas/fido.js';
import { workflowIds } from '../contract/ids.js';
import { biometricPaymentSchema } from '../bank/schemas/biometric-payment.js';
import { formatReais } from '../money.js';
import {
  initialPaymentState,
  paymentWorkflowType,
  type BiometricPaymentWorkflow,
  type AuthorizationResult,
  type PaymentCreated,
  type PaymentInput,
  type PaymentResult,
  type PaymentState,
} from '../contract/payment.js';
import {
  authorizationOptionsUpdate,
  authorizeUpdate,
  paymentCreatedUpdate,
  searchAttributes,
} from '../contract/temporal.js';
import type { StarterContext } from './context.js';
import { customerKeyAttribute, taxNumberInput } from './customer-key.js';
import { parseInput } from './errors.js';
import { askForOptions, requestId, sendAssertion, startOrJoin } from './merchant-requests.js';
import { paymentStateSchema } from './published-state.js';
import { readState, startReplyFrom } from './published.js';

/** A payment's external id: the merchant's own reference, the workflow id's key. */
export const externalId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:-]+$/, 'may hold only letters, digits and . _ : -');

export const startPaymentInput = z.object({
  externalId: externalId.optional(),
  enrollmentId: uuid,
  deviceId: uuid,
  amountCents: z.number().int('must be a whole number of cents').positive('must be more than zero'),
  description: pixText(
    'must be at most 140 characters counted as JSON string length, an emoji counting two (Pix remittance information)',
  ).check(printableOnly()),
  entityId: uuid,
  virtualAccountId: uuid,
  /**
   * The payer's CPF or CNPJ: only its keyed hash is kept, as BankflowCustomerKey, for support staff to
   * search.
   */
  customerTaxNumber: taxNumberInput.optional(),
});
export type StartPaymentInput = z.input<typeof startPaymentInput>;

export const paymentKey = z.object({ externalId });
type PaymentKey = z.infer<typeof paymentKey>;

const paymentCreatedSchema = z.object({ payment: biometricPaymentSchema, publicKeyEncoded: z.string() });

const handleFor = (ctx: StarterContext, key: PaymentKey) =>
  ctx.client.workflow.getHandle<BiometricPaymentWorkflow>(workflowIds.payment(key.externalId));

/** What `startPayment` answers. */
export type StartedPayment = PaymentCreated & {
  externalId: string;
  workflowId: string;
  /**
   * Present when the payment's workflow had already ended: its final result. Nothing was started; `payment`
   * and `publicKeyEncoded` are what the first start answered.
   */
  result?: PaymentResult;
};

/**
 * Step 7-8: starts (or joins) the payment `payment:<externalId>` and answers, in one round trip, the bank's
 * payment and the authorization options for the widget. Without `externalId` one is generated; keep it to
 * follow the payment. Fails with the reason when the enrollment is not authorized.
 *
 * An external id is one payment: a start with other terms (amount, enrollment, device, entity, virtual
 * account, description) than the first is a StartTermsConflictError naming the fields; the same terms join
 * it. Once its workflow ended, the same terms answer the first start's reply with the final `result`, and no
 * payment starts again.
 */
export async function startPayment(ctx: StarterContext, input: StartPaymentInput): Promise<StartedPayment> {
  return startTunedPayment(ctx, input, {});
}

/**
 * How long a payment's waits take, for bankflow's own tests and benchmarks that run in real time (the chaos
 * run, lost-webhook tests). Not part of the starter's public API: merchants get the bank's windows.
 */
export type PaymentTuning = Pick<PaymentInput, 'consentWindowMs' | 'cashInWaitMs' | 'polling'>;

/** `startPayment` with the payment's waits tuned; see PaymentTuning. */
export async function startTunedPayment(
  ctx: StarterContext,
  input: StartPaymentInput,
  tuning: PaymentTuning,
): Promise<StartedPayment> {
  const { customerTaxNumber, ...parsed } = parseInput(startPaymentInput, input);
  const reference = parsed.externalId ?? `pix-${randomUUID()}`;
  const workflowId = workflowIds.payment(reference);
  const handle = handleFor(ctx, { externalId: reference });
  const workflowInput: PaymentInput = {
    ...parsed,
    ...tuning,
    externalId: reference,
  };
  const { answer, ended } = await startOrJoin(ctx, {
    update: paymentCreatedUpdate,
    workflowType: paymentWorkflowType,
    workflowId,
    input: workflowInput,
    initialState: initialPaymentState(workflowInput),
    terms: {
      enrollmentId: parsed.enrollmentId,
      deviceId: parsed.deviceId,
      amountCents: parsed.amountCents,
      description: parsed.description,
      entityId: parsed.entityId,
      virtualAccountId: parsed.virtualAccountId,
    },
    summary: `Pix of ${formatReais(parsed.amountCents)}: ${parsed.description}`,
    searchAttributes: [
      { key: searchAttributes.kind, value: 'payment' },
      { key: searchAttributes.externalId, value: reference },
      { key: searchAttributes.enrollmentId, value: parsed.enrollmentId },
      { key: searchAttributes.deviceId, value: parsed.deviceId },
      ...customerKeyAttribute(ctx, customerTaxNumber),
    ],
    keptAnswer: (published) => startReplyFrom(published, paymentCreatedSchema),
  });
  return {
    ...answer,
    externalId: reference,
    workflowId,
    ...(ended ? { result: await handle.result() } : {}),
  };
}

const optionsInput = paymentKey.extend({ requestId });

/**
 * Fresh authorization options for the widget, while the consent window is open. Each call asks the bank anew,
 * unless it repeats the `requestId` of an earlier one.
 */
export async function getAuthorizationOptions(
  ctx: StarterContext,
  input: z.input<typeof optionsInput>,
): Promise<string> {
  const parsed = parseInput(optionsInput, input);
  return askForOptions(ctx, handleFor(ctx, parsed), authorizationOptionsUpdate, parsed.requestId);
}

export const authorizeInput = paymentKey.extend({ assertion: authorizeFidoAssertionSchema, requestId });

/**
 * Step 9: sends the widget's assertion; answers the new status, or the bank's reason for refusing it. The
 * same assertion sent again (or the same `requestId`) gets the first answer: the bank is asked once.
 */
export async function authorizePayment(
  ctx: StarterContext,
  input: PaymentKey & { assertion: AuthorizeFidoAssertion; requestId?: string },
): Promise<AuthorizationResult> {
  const parsed = parseInput(authorizeInput, input);
  return sendAssertion(ctx, handleFor(ctx, parsed), authorizeUpdate, 'authorize', parsed);
}

/** Where a payment stands, with the evidence gathered so far, as of the workflow's last completed task. */
export async function getPayment(ctx: StarterContext, input: PaymentKey): Promise<PaymentState> {
  return readState(handleFor(ctx, parseInput(paymentKey, input)), paymentStateSchema);
}
/** Step 10: resolves with the final status, end-to-end id, transaction date and the evidence used. */
export async function waitForPaymentResult(ctx: StarterContext, input: PaymentKey): Promise<PaymentResult> {
  return handleFor(ctx, parseInput(paymentKey, input)).result();
}

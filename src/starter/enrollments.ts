import { z } from 'zod';
import { uuid } from '../bank/schemas/common.js';
import { printable, printableOnly } from '../bank/schemas/printable.js';
import { suggestedAccountSchema } from '../bank/schemas/enrollment-request.js';
import { enrollmentStatusSchema } from '../bank/schemas/enrollment.js';
import { registerFidoAssertionSchema, type RegisterFidoAssertion } from '../bank/schemas/fido.js';
import {
  enrollmentWorkflowType,
  initialEnrollmentState,
  sensitiveEnrollmentTerms,
  type EnrollmentWorkflow,
  type EnrollmentInput,
  type EnrollmentResult,
  type EnrollmentStarted,
  type EnrollmentState,
  type RegistrationResult,
} from '../contract/enrollment.js';
import {
  enrollmentStartedUpdate,
  registerCredentialUpdate,
  registrationOptionsUpdate,
  searchAttributes,
} from '../contract/temporal.js';
import { workflowIds } from '../contract/ids.js';
import { memoKeys, flattenTerms } from '../contract/journeys.js';
import type { StarterContext } from './context.js';
import { customerKeyAttribute, taxNumberInput } from './customer-key.js';
import { parseInput } from './errors.js';
import { askForOptions, requestId, sendAssertion, startOrJoin } from './merchant-requests.js';
import { untilAnswered } from './polling.js';
import { enrollmentResultSchema, enrollmentStateSchema } from './published-state.js';
import { readPublished, readState, startReplyFrom } from './published.js';

export const enrollmentKey = z.object({ deviceId: uuid, participantId: uuid });
type EnrollmentKey = z.infer<typeof enrollmentKey>;

const enrollmentStartedSchema = z.object({
  enrollmentId: z.string(),
  redirectUrl: z.string(),
  status: enrollmentStatusSchema,
  expirationDatetime: z.string().nullable(),
});

export const startEnrollmentInput = enrollmentKey.extend({
  returnToUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).check(printableOnly()),
  externalId: printable.min(1).max(200).optional(),
  suggestedAccount: suggestedAccountSchema.optional(),
  /**
   * The customer's CPF or CNPJ: only its keyed hash is kept, as BankflowCustomerKey, for support staff to
   * search.
   */
  customerTaxNumber: taxNumberInput.optional(),
});
export type StartEnrollmentInput = z.input<typeof startEnrollmentInput>;

const handleFor = (ctx: StarterContext, key: EnrollmentKey) =>
  ctx.client.workflow.getHandle<EnrollmentWorkflow>(workflowIds.enrollment(key.deviceId, key.participantId));

/** What `startEnrollment` answers. */
export type StartedEnrollment = EnrollmentStarted & {
  workflowId: string;
  /**
   * Present when the enrollment's workflow had already ended (rejected, revoked, expired or blocked): its
   * outcome. Nothing was started; the rest is what the first start answered.
   */
  result?: EnrollmentResult;
};

/**
 * Step 4: starts (or joins) the enrollment of a device with a participant and answers, in one round trip, the
 * bank's enrollment id and the `redirectUrl` to send the customer to.
 *
 * A start with other terms (external id, return URL, suggested account) than the running enrollment's is a
 * StartTermsConflictError naming the fields; the same terms join it. Once the journey ended, the same terms
 * answer the first start's reply with the `result`; a new `externalId` enrolls the device with the
 * participant again.
 */
export async function startEnrollment(
  ctx: StarterContext,
  input: StartEnrollmentInput,
): Promise<StartedEnrollment> {
  return startTunedEnrollment(ctx, input, {});
}

/**
 * How long an enrollment's waits take, for bankflow's own tests and benchmarks that run in real time. Not
 * part of the starter's public API: merchants get the bank's windows.
 */
export type EnrollmentTuning = Pick<EnrollmentInput, 'deadlines' | 'polling' | 'maxRunMs'>;

/** `startEnrollment` with the enrollment's waits tuned; see EnrollmentTuning. */
export async function startTunedEnrollment(
  ctx: StarterContext,
  input: StartEnrollmentInput,
  tuning: EnrollmentTuning,
): Promise<StartedEnrollment> {
  const parsed = parseInput(startEnrollmentInput, input);
  const workflowId = workflowIds.enrollment(parsed.deviceId, parsed.participantId);
  const handle = handleFor(ctx, parsed);
  const workflowInput: EnrollmentInput = {
    deviceId: parsed.deviceId,
    participantId: parsed.participantId,
    returnToUrl: parsed.returnToUrl,
    externalId: parsed.externalId ?? `enrollment-${parsed.deviceId}-${parsed.participantId}`,
    suggestedAccount: parsed.suggestedAccount,
    ...tuning,
  };
  const { answer, ended } = await startOrJoin(ctx, {
    update: enrollmentStartedUpdate,
    workflowType: enrollmentWorkflowType,
    workflowId,
    input: workflowInput,
    initialState: initialEnrollmentState(workflowInput),
    terms: flattenTerms({
      externalId: workflowInput.externalId,
      returnToUrl: workflowInput.returnToUrl,
      suggestedAccount: workflowInput.suggestedAccount,
    }),
    sensitiveTerms: sensitiveEnrollmentTerms,
    newRunTerm: 'externalId',
    summary: `Pix biometric enrollment of device ${parsed.deviceId} with participant ${parsed.participantId}`,
    searchAttributes: [
      { key: searchAttributes.kind, value: 'enrollment' },
      { key: searchAttributes.deviceId, value: parsed.deviceId },
      { key: searchAttributes.participantId, value: parsed.participantId },
      ...(parsed.externalId ? [{ key: searchAttributes.externalId, value: parsed.externalId }] : []),
      ...customerKeyAttribute(ctx, parsed.customerTaxNumber),
    ],
    keptAnswer: (published) => startReplyFrom(published, enrollmentStartedSchema),
  });
  return { ...answer, workflowId, ...(ended ? { result: await handle.result() } : {}) };
}

const optionsInput = enrollmentKey.extend({ requestId });

/**
 * Step 5: fresh WebAuthn creation options once the account holder authorized at the bank. Each call asks the
 * bank anew, unless it repeats the `requestId` of an earlier one.
 */
export async function getRegistrationOptions(
  ctx: StarterContext,
  input: z.input<typeof optionsInput>,
): Promise<string> {
  const parsed = parseInput(optionsInput, input);
  return askForOptions(ctx, handleFor(ctx, parsed), registrationOptionsUpdate, parsed.requestId);
}

export const registerInput = enrollmentKey.extend({ assertion: registerFidoAssertionSchema, requestId });

/**
 * Step 5: registers the credential the device created; a refusal carries the bank's reason and can be
 * retried. The same credential sent again (or the same `requestId`) gets the first answer: the bank is asked
 * once.
 */
export async function registerCredential(
  ctx: StarterContext,
  input: EnrollmentKey & { assertion: RegisterFidoAssertion; requestId?: string },
): Promise<RegistrationResult> {
  const parsed = parseInput(registerInput, input);
  return sendAssertion(ctx, handleFor(ctx, parsed), registerCredentialUpdate, 'register', parsed);
}

/**
 * Where an enrollment stands: phase, bank ids, account, and the outcome's reason once it ended; as of the
 * workflow's last completed task.
 */
export async function getEnrollment(ctx: StarterContext, input: EnrollmentKey): Promise<EnrollmentState> {
  return readState(handleFor(ctx, parseInput(enrollmentKey, input)), enrollmentStateSchema);
}

/**
 * Step 6: resolves when the journey has an outcome: authorized (the workflow then keeps following the
 * enrollment), or rejected, revoked, expired or blocked. Works on a finished workflow too.
 */
export async function waitForEnrollment(
  ctx: StarterContext,
  input: EnrollmentKey,
): Promise<EnrollmentResult> {
  const handle = handleFor(ctx, parseInput(enrollmentKey, input));
  return untilAnswered(async () => {
    const { status, memo } = await readPublished(handle);
    if (status !== 'RUNNING') return handle.result();
    const outcome = memo[memoKeys.outcome];
    return outcome === undefined ? undefined : enrollmentResultSchema.parse(outcome);
  });
}

import { WorkflowUpdateStage } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import {
  biometricPaymentStatuses,
  type BiometricPayment,
  type BiometricPaymentStatus,
} from '../../src/bank/schemas/biometric-payment.js';
import { type PaymentInput, type PaymentResult, paymentTimings } from '../../src/contract/payment.js';
import { authorizeUpdate, paymentWebhookSignal } from '../../src/contract/temporal.js';
import { awaitsConsent, isFinalPaymentStatus, movesForward } from '../../src/workflows/payment/journey.js';
import type { biometricPaymentWorkflow } from '../../src/workflows/payment/workflow.js';
import { describeScenario, type PaymentScenario } from './commands.js';
import {
  assertionFor,
  historyViolations,
  InvariantViolation,
  lifeOf,
  submitIfRunning,
  startOn,
} from './driver.js';
import type { ModelWorld } from './model-world.js';
import { modelEnrollmentId, PaymentBank, paymentMoves, validAssertion } from './payment-bank.js';
import { resultOf, ScenarioPlayer } from './scenario-player.js';
import { cashInWebhook, paymentWebhook } from './webhooks.js';

let cases = 0;

const isKnown = (status: string): status is BiometricPaymentStatus =>
  (biometricPaymentStatuses as readonly string[]).includes(status);

/**
 * The most advanced known status among the bank's answers: what the workflow, ignoring stale answers and
 * keeping a status it does not know beside its record, last saw.
 */
const lastShown = (shown: string[]) =>
  shown
    .filter(isKnown)
    .reduce<BiometricPaymentStatus | null>(
      (seen, status) => (seen === null || movesForward(seen, status) ? status : seen),
      null,
    );

/**
 * Plays one scenario against the real payment workflow and a model bank, then checks the invariants. Throws
 * an InvariantViolation naming the invariant, what was seen, and the scenario.
 */
export async function runPaymentCase(world: ModelWorld, scenario: PaymentScenario): Promise<void> {
  const index = ++cases;
  const externalId = `model-${index}-${Date.now()}`;
  const workflowId = `payment:${externalId}`;
  const bank = world.paymentBank(workflowId, new PaymentBank(index, scenario.created));
  // The first reads are the enrollment check's: a check is a read, which no fault of the bank may end the
  // journey on.
  for (const fault of scenario.checkFaults) bank.faults.addToReads(fault, 1);
  const input: PaymentInput = {
    externalId,
    enrollmentId: modelEnrollmentId,
    deviceId: '40000000-0000-4000-8000-000000000001',
    amountCents: 1_050,
    description: 'model-based test',
    entityId: '50000000-0000-4000-8000-000000000001',
    virtualAccountId: '60000000-0000-4000-8000-000000000001',
  };
  const handle = await startOn<typeof biometricPaymentWorkflow>(
    world,
    'biometricPaymentWorkflow',
    workflowId,
    input,
  );
  const player = new ScenarioPlayer(world, {
    handle,
    bank,
    moves: paymentMoves,
    webhookSignal: paymentWebhookSignal,
    eventsFor: (record: BiometricPayment) => [
      paymentWebhook(record),
      ...(record.status === 'settled' ? [cashInWebhook(record)] : []),
    ],
    submit: (n, assertion) =>
      submitIfRunning(handle, (h) =>
        h.startUpdate(authorizeUpdate, {
          updateId: `authorize-${n}-${randomUUID()}`,
          waitForStage: WorkflowUpdateStage.ACCEPTED,
          args: [
            {
              assertion: assertionFor(assertion, validAssertion),
            },
          ],
        }),
      ),
  });
  await player.play(scenario.commands);
  if (scenario.ending.do === 'finish') {
    // Before the customer's authorization the bank can only reject; after it, it settles or fails (`pick`).
    for (let steps = 0; bank.status && !isFinalPaymentStatus(bank.status) && steps < 3; steps++)
      await player.moveBank(scenario.ending.pick, scenario.ending.delivery, 0, (to) =>
        awaitsConsent(bank.status ?? 'pending') ? to === 'rejected' : true,
      );
  }

  const shown = () =>
    `the bank's answers showed ${bank.record.shown.join(' → ') || 'nothing'}; its record is ${bank.status ?? 'absent'}`;
  const violation = (invariant: string, detail: string) =>
    new InvariantViolation(
      invariant,
      `${detail}; ${shown()}`,
      describeScenario(
        scenario,
        `created as ${scenario.created}, the enrollment check meeting ${JSON.stringify(scenario.checkFaults)}:`,
      ),
    );
  const result = await resultOf<PaymentResult>(handle, (detail) =>
    violation('6. no read ends the journey: the workflow completes with a result', detail),
  );
  const summary = `result ${JSON.stringify({ outcome: result.outcome, status: result.status, endToEndId: result.endToEndId, reason: result.reason })}`;
  const truth = bank.record.latest;
  const { runs, lifetimeMs } = await lifeOf(world, workflowId);

  if (result.outcome !== 'expired') {
    if (
      result.status !== result.outcome ||
      truth?.status !== result.outcome ||
      !bank.record.shown.includes(result.outcome)
    )
      throw violation(
        "1. a final outcome is the bank's final status, as its GET showed it (never a webhook's, never an unknown one)",
        summary,
      );
    if (result.endToEndId !== truth.end_to_end_id || result.paymentId !== truth.id)
      throw violation("1. the result's end-to-end id and payment are the bank's", summary);
  } else {
    const awaitingCustomer = result.status === null || awaitsConsent(result.status);
    const deadlineMs = awaitingCustomer
      ? paymentTimings.consentWindowMs + paymentTimings.afterConsentWindowMs
      : paymentTimings.processingMs;
    const says = awaitingCustomer
      ? /consent window closed before/
      : /did not finish processing the payment in time/;
    if (!says.test(result.reason) || lifetimeMs < deadlineMs)
      throw violation(
        "2. an ending before the bank's final status is expired, past its deadline, and says so",
        `${summary} after ${lifetimeMs} ms`,
      );
    if (result.status !== lastShown(bank.record.shown))
      throw violation("2. an expired result's status is the last status the bank showed", summary);
  }
  if (bank.acceptedAuthorizations > 1)
    throw violation(
      '3. at most one authorization accepted by the bank',
      `${bank.acceptedAuthorizations} accepted`,
    );
  const tooLong = historyViolations(runs, paymentTimings.historyBound);
  if (tooLong.length > 0) throw violation("4. every run's history stays under the bound", tooLong.join('; '));
}

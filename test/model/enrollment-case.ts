import { WorkflowUpdateStage } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Enrollment } from '../../src/bank/schemas/enrollment.js';
import {
  type EnrollmentInput,
  type EnrollmentResult,
  enrollmentTimings,
} from '../../src/contract/enrollment.js';
import { registerCredentialUpdate, enrollmentWebhookSignal } from '../../src/contract/temporal.js';
import { memoKeys } from '../../src/contract/journeys.js';
import type { enrollmentWorkflow } from '../../src/workflows/enrollment/workflow.js';
import { describeScenario, type EnrollmentScenario } from './commands.js';
import {
  assertionFor,
  historyViolations,
  InvariantViolation,
  lifeOf,
  submitIfRunning,
  startOn,
} from './driver.js';
import { EnrollmentBank, enrollmentMoves, finalEnrollment } from './enrollment-bank.js';
import type { ModelWorld } from './model-world.js';
import { validAssertion } from './payment-bank.js';
import { resultOf, ScenarioPlayer } from './scenario-player.js';
import { enrollmentWebhook } from './webhooks.js';

let cases = 0;

const pendingSteps: readonly string[] = ['awaiting_account_holder_validation', 'awaiting_enrollment'];

/** The newest record among the bank's answers: the workflow ignores an answer older than the one it holds. */
const lastShown = (bank: EnrollmentBank) =>
  bank.record.versions.filter((version) => bank.record.shown.includes(version.status)).at(-1)?.status;

/**
 * Plays one scenario against the real enrollment workflow and a model bank, then checks the invariants.
 * Throws an InvariantViolation naming the invariant, what was seen, and the scenario.
 */
export async function runEnrollmentCase(world: ModelWorld, scenario: EnrollmentScenario): Promise<void> {
  const index = ++cases;
  const externalId = `model-${index}-${Date.now()}`;
  const workflowId = `enrollment:${externalId}`;
  const bank = world.enrollmentBank(workflowId, new EnrollmentBank(index));
  const input: EnrollmentInput = {
    deviceId: '40000000-0000-4000-8000-000000000002',
    participantId: '30000000-0000-4000-8000-000000000001',
    returnToUrl: 'https://merchant.example/back',
    externalId,
  };
  const handle = await startOn<typeof enrollmentWorkflow>(world, 'enrollmentWorkflow', workflowId, input);
  const shown = () =>
    `the bank's answers showed ${bank.record.shown.join(' → ') || 'nothing'}; its record is ${bank.status ?? 'absent'}`;
  const violation = (invariant: string, detail: string) =>
    new InvariantViolation(invariant, `${detail}; ${shown()}`, describeScenario(scenario));
  const player = new ScenarioPlayer(world, {
    handle,
    bank,
    moves: enrollmentMoves,
    webhookSignal: enrollmentWebhookSignal,
    eventsFor: (record: Enrollment) => [enrollmentWebhook(record)],
    submit: (n, assertion) =>
      submitIfRunning(handle, (h) =>
        h.startUpdate(registerCredentialUpdate, {
          updateId: `register-${n}-${randomUUID()}`,
          waitForStage: WorkflowUpdateStage.ACCEPTED,
          args: [
            {
              assertion: assertionFor(assertion, validAssertion),
            },
          ],
        }),
      ),
    afterMove: async () => {
      const published = (await handle.describe()).memo?.[memoKeys.outcome] as EnrollmentResult | undefined;
      if (published?.outcome === 'authorized' && !bank.record.shown.includes('authorized'))
        throw violation(
          '5. authorized only once the bank shows it',
          `published ${JSON.stringify(published)}`,
        );
    },
  });
  await player.play(scenario.commands);
  // An authorized enrollment is followed until the bank ends it, so a scenario always ends one the bank
  // authorized.
  if (scenario.ending.do === 'finish' || bank.status === 'authorized') {
    const { pick, delivery } =
      scenario.ending.do === 'finish' ? scenario.ending : { pick: 0, delivery: 'lost' as const };
    await player.moveBank(pick, delivery, 0, finalEnrollment);
  }

  const result = await resultOf<EnrollmentResult>(handle, (detail) =>
    violation('6. no read ends the journey: the workflow completes with a result', detail),
  );
  const summary = `result ${JSON.stringify({ outcome: result.outcome, status: result.enrollment?.status, reason: result.reason })}`;
  const { runs, lifetimeMs } = await lifeOf(world, workflowId);
  const ownStatus = { rejected: 'rejected', revoked: 'revoked', expired: 'inactive' } as const;
  const byBank =
    result.outcome in ownStatus &&
    bank.status === ownStatus[result.outcome as keyof typeof ownStatus] &&
    bank.record.shown.includes(bank.status) &&
    result.enrollment?.status === bank.status;
  const byDeadline =
    result.outcome === 'expired' &&
    pendingSteps.includes(result.enrollment?.status ?? 'inactive') &&
    result.enrollment?.status === lastShown(bank) &&
    /in time/.test(result.reason) &&
    lifetimeMs >= enrollmentTimings.registrationMs;
  if (!byBank && !byDeadline)
    throw violation(
      "5. an ending is the bank's final status as it showed it, or expired by deadline with the step still pending",
      `${summary} after ${lifetimeMs} ms`,
    );
  const tooLong = historyViolations(runs, enrollmentTimings.historyBound);
  if (tooLong.length > 0) throw violation("4. every run's history stays under the bound", tooLong.join('; '));
}

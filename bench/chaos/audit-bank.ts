import type { KnownBiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import type { Recurrence } from '../../src/bank/schemas/recurrence.js';
import type { CollectionAttempt } from '../../src/bank/schemas/collection-attempt.js';
import type { KnownEnrollment } from '../../src/bank/schemas/enrollment.js';
import type { AuthorizeCalls } from '../../devkit/sandbox/biometrics/state.js';
import type { RecurrenceState } from '../../src/contract/recurrence.js';
import type { JourneyRecord } from './journey.js';
import type { JourneyKind } from './plan.js';
import type { RecurrenceRun } from './recurrences.js';
import { enrollmentStatusOf } from './audit-outcomes.js';
import type { Violations } from './violations.js';

/** The bank's records, read after the run through the sandbox's control API and state. */
export interface BankRecords {
  payments: KnownBiometricPayment[];
  authorizeCalls: (AuthorizeCalls & { payment_id: string })[];
  enrollments: KnownEnrollment[];
  /** Collection attempts in the sync's window. */
  attempts: CollectionAttempt[];
  /** The recurrences the run generated. */
  recurrences: Recurrence[];
}

const expectedOutcome: Record<JourneyKind, string> = {
  settles: 'settled',
  fails: 'failed',
  rejected: 'rejected',
  'enrollment-refused': 'rejected',
};

function finalOutcome(journey: JourneyRecord): string | undefined {
  return journey.kind === 'enrollment-refused' || journey.enrollmentOutcome !== 'authorized'
    ? journey.enrollmentOutcome
    : journey.paymentOutcome;
}

/**
 * Every journey reached a final state, the one the customer and the bank chose; the bank holds exactly one
 * payment per external_id (none for a journey that never paid) with the status the workflow reported, at most
 * one successful authorize per payment, and one enrollment per device in the status the workflow reported.
 */
export function auditJourneys(journeys: JourneyRecord[], bank: BankRecords, violations: Violations): void {
  const paymentsByExternalId = new Map<string, KnownBiometricPayment[]>();
  for (const payment of bank.payments) {
    const key = payment.external_id ?? '(none)';
    paymentsByExternalId.set(key, [...(paymentsByExternalId.get(key) ?? []), payment]);
  }
  const authorizeCalls = new Map(bank.authorizeCalls.map((calls) => [calls.payment_id, calls]));
  const known = new Set(journeys.map((journey) => journey.externalId));

  for (const journey of journeys) {
    const subject = `journey ${journey.index} (${journey.kind})`;
    const outcome = finalOutcome(journey);
    if (journey.error || outcome === undefined) {
      violations.add('every journey reaches a final state', subject, journey.error ?? 'no outcome');
    } else if (outcome !== expectedOutcome[journey.kind]) {
      violations.add(
        'journeys end as the customer and the bank decided',
        subject,
        `ended ${outcome}, expected ${expectedOutcome[journey.kind]}`,
      );
    }

    const payments = paymentsByExternalId.get(journey.externalId) ?? [];
    const expected = journey.paymentStarted ? 1 : 0;
    if (payments.length !== expected) {
      violations.add(
        'exactly one payment per external_id at the bank',
        journey.externalId,
        `${payments.length} payments at the bank, expected ${expected}`,
      );
    }
    for (const payment of payments) {
      const calls = authorizeCalls.get(payment.id);
      if ((calls?.successful ?? 0) > 1) {
        violations.add(
          'at most one successful authorize per payment',
          `payment ${payment.id} (${journey.externalId})`,
          `${calls?.successful} successful authorize calls`,
        );
      }
      if (journey.paymentOutcome && journey.paymentOutcome !== payment.status) {
        violations.add(
          'the workflow reports the bank’s payment status',
          `payment ${payment.id} (${journey.externalId})`,
          `workflow says ${journey.paymentOutcome}, the bank says ${payment.status}`,
        );
      }
    }

    if (!journey.deviceId) continue;
    const enrollments = bank.enrollments.filter((enrollment) => enrollment.device_id === journey.deviceId);
    if (enrollments.length !== 1) {
      violations.add(
        'one enrollment per device and participant at the bank',
        subject,
        `${enrollments.length} enrollments for device ${journey.deviceId}`,
      );
    }
    const [enrollment] = enrollments;
    const reportedStatus = journey.enrollmentOutcome && enrollmentStatusOf[journey.enrollmentOutcome];
    if (enrollment && reportedStatus && enrollment.status !== reportedStatus) {
      violations.add(
        'the workflow reports the bank’s enrollment status',
        `enrollment ${enrollment.id}`,
        `workflow says ${journey.enrollmentOutcome}, the bank says ${enrollment.status}`,
      );
    }
  }

  for (const [externalId, payments] of paymentsByExternalId) {
    if (!known.has(externalId)) {
      violations.add(
        'exactly one payment per external_id at the bank',
        externalId,
        `${payments.length} payments no journey asked for`,
      );
    }
  }
}

/**
 * The sync finished and counted exactly the bank's attempts of its window, each belonging to a recurrence
 * with a workflow; every recurrence workflow holds each of its attempts at the bank with the bank's status.
 */
export function auditRecurrences(
  run: RecurrenceRun,
  attempts: CollectionAttempt[],
  states: Map<string, RecurrenceState | Error>,
  violations: Violations,
): void {
  if (!run.summary) {
    violations.add('the recurrence sync completes', 'attempts sync', run.error ?? 'no summary');
  } else if (run.summary.attempts !== attempts.length || run.summary.unknownAttempts !== 0) {
    violations.add(
      'the recurrence sync counts the bank’s attempts',
      'attempts sync',
      `synced ${run.summary.attempts} (${run.summary.unknownAttempts} unknown), the bank holds ${attempts.length}`,
    );
  }
  for (const externalId of run.externalIds) {
    const state = states.get(externalId);
    if (!state || state instanceof Error) {
      violations.add('every recurrence workflow answers', externalId, state?.message ?? 'not queried');
      continue;
    }
    const held = new Map(state.attempts.map((attempt) => [attempt.id, attempt.status]));
    for (const attempt of attempts.filter((candidate) => candidate.external_id === externalId)) {
      if (held.get(attempt.id) !== attempt.status) {
        violations.add(
          'every recurrence holds its attempts with the bank’s status',
          `${externalId} attempt ${attempt.id}`,
          `workflow holds ${held.get(attempt.id) ?? 'nothing'}, the bank says ${attempt.status}`,
        );
      }
    }
  }
}

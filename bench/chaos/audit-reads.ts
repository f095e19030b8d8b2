import { biometricPaymentStatuses } from '../../src/bank/schemas/biometric-payment.js';
import { enrollmentStatuses } from '../../src/bank/schemas/enrollment.js';
import type { EnrollmentResult } from '../../src/contract/enrollment.js';
import type { PaymentResult } from '../../src/contract/payment.js';
import { journeyPollReads } from '../../src/contract/temporal.js';
import { enrollmentStatusOf } from './audit-outcomes.js';
import type { RunHistory } from './histories.js';
import type { Violations } from './violations.js';

export const readEndedCheck = 'no journey ended by a read';
export const unknownTakenCheck = 'no unknown status taken for a known one';

const reads = new Set<string>(journeyPollReads);
const knownStatuses = new Set<string>([...biometricPaymentStatuses, ...enrollmentStatuses]);
const finalPaymentOutcomes = new Set<string>(['settled', 'failed', 'rejected']);

const subjectOf = (run: RunHistory) => `${run.info.workflowId} (${run.info.type})`;

/**
 * A run that failed with a journey's read somewhere in its failure's chain, or right after the bank's last
 * answer to it carried a status the spec does not list (a check that took one for a refusal): the read ended
 * it.
 */
function endedByRead(run: RunHistory, violations: Violations): void {
  if (run.info.status.name !== 'FAILED') return;
  const chain = run.failure ?? [];
  const read = chain.find((link) => link.activityType !== undefined && reads.has(link.activityType));
  const cause = chain.at(-1);
  const why = `${cause?.type ?? 'no type'}: ${cause?.message.slice(0, 160) ?? ''}`;
  if (read) {
    violations.add(
      readEndedCheck,
      subjectOf(run),
      `failed because its read ${read.activityType} failed (${why})`,
    );
    return;
  }
  const last = run.answeredStatuses.at(-1);
  if (last !== undefined && !knownStatuses.has(last)) {
    violations.add(
      readEndedCheck,
      subjectOf(run),
      `failed (${why}) after the bank's last answer to it carried ${last}, a status the spec does not list`,
    );
  }
}

/**
 * The status a journey ended on, when it ended on one of the bank's: a final payment status, or the
 * enrollment status its outcome stands for (audit-outcomes.ts).
 */
function endedOn(run: RunHistory): string | undefined {
  if (run.info.status.name !== 'COMPLETED' || run.result === undefined) return undefined;
  if (run.info.type === 'biometricPaymentWorkflow') {
    const result = run.result as PaymentResult;
    return finalPaymentOutcomes.has(result.outcome) ? (result.status ?? 'none') : undefined;
  }
  if (run.info.type === 'enrollmentWorkflow') {
    const result = run.result as EnrollmentResult;
    return enrollmentStatusOf[result.outcome] === undefined
      ? undefined
      : (result.enrollment?.status ?? 'none');
  }
  return undefined;
}

/**
 * Every journey followed the bank through whatever its reads met, and no read ended one: no run failed
 * because a read of the record it follows failed (`journeyPollReads`: a refused credential, an outage, an
 * unreadable answer) or answered a status the spec does not list, and no journey ended on such a status, nor
 * on one no answer of the bank to that journey carried (its runs' bank calls together: an unknown status
 * taken for a known one).
 */
export function auditReadEndings(runs: RunHistory[], violations: Violations): void {
  const answered = new Map<string, Set<string>>();
  for (const run of runs) {
    const statuses = answered.get(run.info.workflowId) ?? new Set<string>();
    for (const status of run.answeredStatuses) statuses.add(status);
    answered.set(run.info.workflowId, statuses);
  }
  for (const run of runs) {
    endedByRead(run, violations);
    const status = endedOn(run);
    if (status === undefined) continue;
    const shown = answered.get(run.info.workflowId) ?? new Set<string>();
    const unknownShown = [...shown].filter((candidate) => !knownStatuses.has(candidate));
    const besides = unknownShown.length > 0 ? `; it was answered ${unknownShown.join(', ')}` : '';
    if (!knownStatuses.has(status)) {
      violations.add(
        unknownTakenCheck,
        subjectOf(run),
        `ended on ${status}, a status the spec does not list`,
      );
    } else if (!shown.has(status)) {
      violations.add(
        unknownTakenCheck,
        subjectOf(run),
        `ended on ${status}, which no answer of the bank to this journey carried${besides}`,
      );
    }
  }
}

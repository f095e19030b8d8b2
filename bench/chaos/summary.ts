import type { DeliveryAttempt, WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import type { FaultInjector } from '../../devkit/sandbox/faults.js';
import type { BuildAccounting } from './audit-builds.js';
import type { HostileCounts } from './hostile.js';
import type { BankRecords } from './audit-bank.js';
import type { RunHistory } from './histories.js';
import type { JourneyRecord } from './journey.js';
import type { MerchantRetries } from './merchant.js';
import type { DisruptionPlan } from './plan.js';
import type { ChaosOptions } from './options.js';
import type { RecurrenceRun } from './recurrences.js';
import type { ChaosReport, Counts } from './report.js';
import type { ChaosStack } from './stack.js';
import type { Violations } from './violations.js';

/** What the run observed, gathered for the report. */
export interface RunFacts {
  durationMs: number;
  journeys: JourneyRecord[];
  stack: ChaosStack;
  retries: MerchantRetries;
  injected: FaultInjector['injected'];
  disruptionPlan: DisruptionPlan;
  getLagMs: number;
  bankCalls: number;
  events: WebhookEventRecord[];
  deliveries: DeliveryAttempt[];
  bank: BankRecords;
  runs: RunHistory[];
  recurrences: RecurrenceRun;
  webhooks: ChaosReport['outcomes']['webhooks'];
  hostile: HostileCounts;
  builds: BuildAccounting;
  notifications: ChaosReport['notifications'];
}

const tally = (items: (string | undefined)[]): Counts => {
  const counts: Counts = {};
  for (const item of items) if (item !== undefined) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
};

function percentiles(values: number[]): { p50: number; p95: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (share: number) => sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0 };
}

function refusedDeliveries(attempts: DeliveryAttempt[]): Counts {
  return tally(
    attempts
      .filter((attempt) => !attempt.delivered)
      .map((attempt) =>
        attempt.status_code !== null ? `HTTP ${attempt.status_code}` : (attempt.error ?? 'error'),
      ),
  );
}

/** The report's numbers, from the run's facts and the audit's violations. */
export function summarize(
  options: Omit<ChaosOptions, 'log'>,
  facts: RunFacts,
  violations: Violations,
): ChaosReport {
  const { injected, runs, bank, journeys, stack, retries, disruptionPlan: plan } = facts;
  return {
    settings: {
      journeys: options.journeys,
      seed: options.seed,
      concurrency: options.concurrency,
      workers: options.workers,
    },
    durationMs: facts.durationMs,
    journeys: {
      total: journeys.length,
      byKind: tally(journeys.map((journey) => journey.kind)),
      enrollmentOutcomes: tally(journeys.map((journey) => journey.enrollmentOutcome)),
      paymentOutcomes: tally(journeys.map((journey) => journey.paymentOutcome)),
      unfinished: journeys.filter((journey) => journey.error).length,
      resubmittedRegistrations: journeys.filter((journey) => journey.registrations > 1).length,
      resubmittedAuthorizations: journeys.filter((journey) => journey.authorizations > 1).length,
      turnedAway: journeys.reduce((total, journey) => total + journey.turnedAway, 0),
      durationsMs: percentiles(journeys.map((journey) => journey.durationMs ?? 0)),
    },
    faults: {
      bankCalls: facts.bankCalls,
      bankErrors: injected.errors,
      latencySpikes: injected.latencySpikes,
      webhooksPublished: facts.events.length,
      webhooksDropped: injected.webhooksDropped,
      webhooksDuplicated: injected.webhooksDuplicated,
      webhooksReordered: injected.webhooksReordered,
      webhooksDelayed: injected.webhooksDelayed,
      webhooksForeignIds: injected.webhooksForeignIds,
      getLagMs: facts.getLagMs,
      // The chaos run's only fail_next and alter_next rules are these two disruptions'.
      credentialRotation: {
        atMs: plan.credentialRotationAtMs,
        forMs: plan.credentialRotationMs,
        refused: injected.ruleFailures,
      },
      schemaDrift: {
        atMs: plan.schemaDriftAtMs,
        forMs: plan.schemaDriftMs,
        altered: injected.answersAltered,
      },
      deliveriesRefused: refusedDeliveries(facts.deliveries),
      webhooksGivenUp: facts.events.filter(
        (event) => event.status === 'failed' && event.delivered_copies === 0,
      ).length,
      workerKills: stack.workers.counts.killed,
      workerStarts: stack.workers.counts.started,
      workerExitsOnTheirOwn: stack.workers.counts.exitedByThemselves,
      workerRedeploys: stack.workers.counts.redeployed,
      temporalRestarts: stack.temporal.restarts,
      temporalDowntimeMs: stack.temporal.downtimesMs,
      receiverRestarts: stack.receiver.restarts,
      merchantRetries: Object.fromEntries(retries.byOperation),
      merchantRetryReasons: Object.fromEntries(retries.byKind),
      hostile: facts.hostile,
    },
    outcomes: {
      paymentsAtBank: bank.payments.length,
      successfulAuthorizes: bank.authorizeCalls.reduce((total, calls) => total + calls.successful, 0),
      enrollmentsAtBank: bank.enrollments.length,
      webhooks: facts.webhooks,
      refusedSignals: runs.reduce((total, run) => total + run.refusedSignals, 0),
      workflowRuns: tally(runs.map((run) => `${run.info.type} ${run.info.status.name.toLowerCase()}`)),
      workflowTaskTimeouts: runs.reduce((total, run) => total + run.workflowTaskTimeouts, 0),
      workflowTaskFailures: tally(runs.flatMap((run) => run.workflowTaskFailures.map(({ cause }) => cause))),
      retriedActivities: runs.reduce((total, run) => total + run.retriedActivities, 0),
      updatesAccepted: runs.reduce((total, run) => total + run.updatesAccepted, 0),
      updatesSharingTask: runs.reduce((total, run) => total + run.updatesSharingTask, 0),
      sync: facts.recurrences.summary,
      builds: facts.builds,
    },
    notifications: facts.notifications,
    violations: violations.list,
  };
}

import type { AttemptsSyncSummary } from '../../src/contract/attempts-sync.js';
import type { BuildAccounting } from './audit-builds.js';
import type { WebhookAccounting } from './audit-temporal.js';
import type { HostileCounts } from './hostile.js';
import type { EndpointCounts } from './merchant-endpoint.js';
import type { Violation } from './violations.js';

export type Counts = Record<string, number>;

export interface ChaosReport {
  settings: { journeys: number; seed: number; concurrency: number; workers: number };
  durationMs: number;
  journeys: {
    total: number;
    byKind: Counts;
    enrollmentOutcomes: Counts;
    paymentOutcomes: Counts;
    unfinished: number;
    /** Credentials / assertions submitted more than once in a journey. */
    resubmittedRegistrations: number;
    resubmittedAuthorizations: number;
    /**
     * Merchant calls the workflow turned away (in progress, moved on, not caught up), resolved by a state
     * read.
     */
    turnedAway: number;
    durationsMs: { p50: number; p95: number; max: number };
  };
  faults: {
    bankCalls: number;
    bankErrors: number;
    latencySpikes: number;
    webhooksPublished: number;
    webhooksDropped: number;
    webhooksDuplicated: number;
    webhooksReordered: number;
    webhooksDelayed: number;
    /** Events sent naming another resource's id. */
    webhooksForeignIds: number;
    /** How far the bank's reads lagged its writes. */
    getLagMs: number;
    /**
     * Every bank call refused 401 for a while (the bank rotating credentials): when, how long, calls refused.
     */
    credentialRotation: { atMs: number; forMs: number; refused: number };
    /** The journeys' reads answered in a drifted schema for a while: when, how long, answers altered. */
    schemaDrift: { atMs: number; forMs: number; altered: number };
    /** Delivery attempts the receiver did not answer 2xx, by status code or network error. */
    deliveriesRefused: Counts;
    /** Events whose every delivery attempt failed (the bank gave up); workflows learn of them by polling. */
    webhooksGivenUp: number;
    workerKills: number;
    workerStarts: number;
    workerExitsOnTheirOwn: number;
    /** Workers restarted on the new build (the mid-run deploy). */
    workerRedeploys: number;
    temporalRestarts: number;
    temporalDowntimeMs: number[];
    receiverRestarts: number;
    merchantRetries: Counts;
    merchantRetryReasons: Counts;
    hostile: HostileCounts;
  };
  outcomes: {
    paymentsAtBank: number;
    successfulAuthorizes: number;
    enrollmentsAtBank: number;
    webhooks: WebhookAccounting;
    /**
     * Webhook signals in the histories whose payload bankflow did not write, each dropped by its workflow.
     */
    refusedSignals: number;
    workflowRuns: Counts;
    workflowTaskTimeouts: number;
    workflowTaskFailures: Counts;
    retriedActivities: number;
    updatesAccepted: number;
    updatesSharingTask: number;
    sync?: Pick<
      AttemptsSyncSummary,
      'attempts' | 'pages' | 'runs' | 'recurrencesUpdated' | 'unknownAttempts'
    >;
    /** Which builds ran workflows, and how many each. */
    builds: BuildAccounting;
  };
  /** What the merchant's notification endpoint received and how it misbehaved. */
  notifications: EndpointCounts & {
    /** Final events (settled, failed, authorized, revoked) the journeys owed the merchant. */
    owed: number;
    downMs: number;
    /** Delivery attempts the workers logged unanswered while the endpoint was down. */
    refusedWhileDown: number;
  };
  violations: Violation[];
}

const sum = (counts: Counts) => Object.values(counts).reduce((total, n) => total + n, 0);
const spread = (counts: Counts) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ') || 'none';
const percent = (part: number, whole: number) =>
  whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`;

const inSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function table(title: string, rows: [string, string | number][]): string[] {
  const width = Math.max(...rows.map(([name]) => name.length));
  return [title, ...rows.map(([name, value]) => `  ${name.padEnd(width)}  ${value}`), ''];
}

/** The run as a plain-text table: what ran, what was injected, what came out, and every violation. */
export function formatReport(report: ChaosReport): string {
  const { settings, journeys, faults, outcomes, notifications } = report;
  const minutes = Math.floor(report.durationMs / 60_000);
  const seconds = Math.round((report.durationMs % 60_000) / 1000);
  const lines = [
    `bankflow chaos run: seed ${settings.seed}, ${settings.journeys} journeys (${settings.concurrency} at once), ` +
      `${settings.workers} worker processes, ${minutes} min ${seconds} s`,
    '',
    ...table('Journeys', [
      ['started', journeys.total],
      ['planned', spread(journeys.byKind)],
      ['enrollment outcomes', spread(journeys.enrollmentOutcomes)],
      ['payment outcomes', spread(journeys.paymentOutcomes)],
      ['unfinished', journeys.unfinished],
      ['credential resubmitted', journeys.resubmittedRegistrations],
      ['assertion resubmitted', journeys.resubmittedAuthorizations],
      ['calls turned away', journeys.turnedAway],
      [
        'duration',
        `median ${inSeconds(journeys.durationsMs.p50)}, p95 ${inSeconds(journeys.durationsMs.p95)}, max ${inSeconds(journeys.durationsMs.max)}`,
      ],
    ]),
    ...table('Faults injected', [
      [
        'bank calls answered 500',
        `${faults.bankErrors} of ${faults.bankCalls} (${percent(faults.bankErrors, faults.bankCalls)})`,
      ],
      ['bank latency spikes (3 s)', faults.latencySpikes],
      ['webhooks published', faults.webhooksPublished],
      [
        '  dropped',
        `${faults.webhooksDropped} (${percent(faults.webhooksDropped, faults.webhooksPublished)})`,
      ],
      [
        '  duplicated',
        `${faults.webhooksDuplicated} (${percent(faults.webhooksDuplicated, faults.webhooksPublished)})`,
      ],
      ['  reordered', faults.webhooksReordered],
      ['  delayed', faults.webhooksDelayed],
      ['  naming another resource', faults.webhooksForeignIds],
      ['bank reads lagging writes by', `${faults.getLagMs} ms`],
      [
        'bank credential rotation',
        `every call 401 from ${inSeconds(faults.credentialRotation.atMs)} for ${inSeconds(faults.credentialRotation.forMs)}: ` +
          `${faults.credentialRotation.refused} calls refused`,
      ],
      [
        'bank schema drift',
        `reads in unknown statuses and members from ${inSeconds(faults.schemaDrift.atMs)} for ${inSeconds(faults.schemaDrift.forMs)}: ` +
          `${faults.schemaDrift.altered} answers altered`,
      ],
      ['deliveries refused', `${sum(faults.deliveriesRefused)} (${spread(faults.deliveriesRefused)})`],
      ['webhooks the bank gave up on', faults.webhooksGivenUp],
      ['worker SIGKILLs', faults.workerKills],
      ['worker starts', faults.workerStarts],
      ['worker exits on their own', faults.workerExitsOnTheirOwn],
      [
        'workers redeployed on a new build',
        `${faults.workerRedeploys}${outcomes.builds.promotedAtMs === undefined ? ', never promoted' : `, promoted at ${inSeconds(outcomes.builds.promotedAtMs)}`}`,
      ],
      [
        'Temporal dev server restarts',
        `${faults.temporalRestarts} (down ${faults.temporalDowntimeMs.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ') || '-'})`,
      ],
      ['receiver restarts', faults.receiverRestarts],
      ['merchant calls repeated', `${sum(faults.merchantRetries)} (${spread(faults.merchantRetries)})`],
      ['  because', spread(faults.merchantRetryReasons)],
      [
        'hostile signals',
        `${faults.hostile.undecodableSignals} not decrypting, ${faults.hostile.plaintextSignals} plaintext, ` +
          `${faults.hostile.forgedWebhooks} forged webhooks encrypted with the real keys`,
      ],
      ['hostile updates', `${faults.hostile.undecodableUpdates} not decrypting (each answered)`],
      ['  not delivered', faults.hostile.notDelivered],
    ]),
    ...table('Outcomes', [
      ['payments at the bank', outcomes.paymentsAtBank],
      ['successful authorizes', outcomes.successfulAuthorizes],
      ['enrollments at the bank', outcomes.enrollmentsAtBank],
      [
        'webhooks delivered',
        `${outcomes.webhooks.delivered}: ${outcomes.webhooks.inHistories} in workflow histories, ${outcomes.webhooks.unmatched} in the unmatched store`,
      ],
      ['hostile signals in histories', `${outcomes.refusedSignals}, each dropped by its workflow`],
      ['workflow runs', spread(outcomes.workflowRuns)],
      ['workflow tasks timed out', outcomes.workflowTaskTimeouts],
      ['workflow tasks failed', spread(outcomes.workflowTaskFailures)],
      ['activities retried', outcomes.retriedActivities],
      [
        'updates accepted',
        `${outcomes.updatesAccepted}, ${outcomes.updatesSharingTask} of them in a workflow task with other new events`,
      ],
      [
        'recurrence attempts sync',
        outcomes.sync
          ? `${outcomes.sync.attempts} attempts, ${outcomes.sync.pages} pages, ${outcomes.sync.runs} runs, ` +
            `${outcomes.sync.recurrencesUpdated} recurrences updated, ${outcomes.sync.unknownAttempts} unknown`
          : 'did not finish',
      ],
    ]),
    ...table('Merchant notifications', [
      [
        'requests received',
        `${notifications.requests}, ${notifications.duplicates} of them an event seen before`,
      ],
      ['answered 500', notifications.errors],
      ['answered too slowly', `${notifications.tooSlow} (the POST timed out; bankflow sent it again)`],
      ['answered slowly', notifications.slow],
      [
        'answered 200 again',
        `${notifications.answeredAgain} (an event the merchant had answered 200 before)`,
      ],
      [
        'endpoint down',
        `${inSeconds(notifications.downMs)}, ${notifications.refusedWhileDown} attempts refused meanwhile`,
      ],
      ['final events owed', `${notifications.owed}, each accepted (or a violation below)`],
    ]),
    ...table('Builds (workflow runs with a task on each)', [
      ...outcomes.builds.builds.map((build): [string, string] => [
        `${build.role} ${build.buildId}`,
        `${build.runs} runs: ${build.pinned} pinned, ${build.autoUpgrade} auto-upgrade`,
      ]),
      ['moved to the new build', `${outcomes.builds.moved} workflows, by continue-as-new`],
    ]),
    `Violations: ${report.violations.length}`,
    ...report.violations.map((v) => `  [${v.check}] ${v.subject}: ${v.detail}`),
  ];
  return lines.join('\n');
}

import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncomingMessage } from 'node:http';
import type { KnownBiometricPayment } from '../../src/bank/schemas/biometric-payment.js';
import type { KnownEnrollment } from '../../src/bank/schemas/enrollment.js';
import type { FaultInjector, FaultSettings } from '../../devkit/sandbox/faults.js';
import type { DeliveryAttempt, WebhookEventRecord } from '../../devkit/sandbox/webhooks/delivery-log.js';
import type { SandboxWorld } from '../../devkit/sandbox/seed/world.js';
import { getRecurrence } from '../../src/starter/index.js';
import type { RecurrenceState } from '../../src/contract/recurrence.js';
import { auditJourneys, auditRecurrences, type BankRecords } from './audit-bank.js';
import { auditBuilds } from './audit-builds.js';
import {
  auditNotifications,
  drainNotifications,
  expectedFinalEvents,
  refusalsWhileDown,
} from './audit-notifications.js';
import { auditConfirmedOutcomes } from './audit-outcomes.js';
import { auditReadEndings } from './audit-reads.js';
import { auditPendingTasks, auditWebhooks, auditWorkflows } from './audit-temporal.js';
import { startDisruptions } from './disruptions.js';
import { startHostileActor } from './hostile.js';
import { readAllHistories, type RunHistory } from './histories.js';
import { newJourneyRecord, runJourney, type JourneyContext, type JourneyRecord } from './journey.js';
import { MerchantRetries } from './merchant.js';
import { defaultChaosOptions, type ChaosOptions } from './options.js';
import { planChaos, type ChaosPlan } from './plan.js';
import { chaosFaults, journeyDeadlineMs } from './profile.js';
import { prepareRecurrences, syncAttempts, syncWindow, type RecurrenceRun } from './recurrences.js';
import type { ChaosReport } from './report.js';
import { SandboxControl } from './sandbox-control.js';
import { startChaosStack, type ChaosStack } from './stack.js';
import { summarize } from './summary.js';
import { Violations } from './violations.js';
import { notificationTimings } from '../../src/contract/notifications.js';
import { chaosNotifySpeedup } from './merchant-endpoint.js';

/**
 * How long the audit waits for the merchant to have accepted every final event owed, once it recovered: an
 * event that failed often waits out the retry policy's longest interval (at the chaos speedup) before it
 * comes again.
 */
const notificationsDrainMs = notificationTimings.retry.maximumIntervalMs / chaosNotifySpeedup + 30_000;

/** Well past the bank's read lag the chaos faults set, so the sync's first page sees the attempts posted. */
const readsSettleMs = (seed: number) => 5 * chaosFaults(seed).get_lag_ms;

/** Journeys start at their planned moments, at most `concurrency` at once; each has a deadline of its own. */
async function runJourneys(
  ctx: JourneyContext,
  plan: ChaosPlan,
  concurrency: number,
  startedAt: number,
  log: (line: string) => void,
): Promise<JourneyRecord[]> {
  const records: JourneyRecord[] = [];
  const inFlight = new Set<Promise<void>>();
  for (const spec of plan.journeys) {
    await sleep(Math.max(0, startedAt + spec.startAtMs - Date.now()));
    while (inFlight.size >= concurrency) await Promise.race(inFlight);
    const record = newJourneyRecord(spec);
    const timer = new AbortController();
    const deadline = sleep(journeyDeadlineMs, undefined, { signal: timer.signal }).then(
      () => {
        record.error ??= `no outcome within ${journeyDeadlineMs / 60_000} minutes`;
      },
      () => undefined,
    );
    const run = Promise.race([runJourney(ctx, spec, record), deadline]).then(() => {
      timer.abort();
      records.push(record);
      inFlight.delete(run);
      if (records.length % 10 === 0 || records.length === plan.journeys.length) {
        const elapsed = ((Date.now() - startedAt) / 1000).toFixed(1);
        log(`[${elapsed}s] journeys finished: ${records.length}/${plan.journeys.length}`);
      }
    });
    inFlight.add(run);
  }
  await Promise.all(inFlight);
  return records.sort((a, b) => a.index - b.index);
}

/** Counts every Banking API request the sandbox answers (the control API aside). */
function countBankCalls(stack: ChaosStack): { count: number } {
  const counter = { count: 0 };
  stack.sandbox.app.server.on('request', (request: IncomingMessage) => {
    if (!(request.url ?? '').startsWith('/sandbox/')) counter.count++;
  });
  return counter;
}

/** Waits until the bank has no webhook on its way (held back, delayed or being retried). */
async function settleWebhooks(control: SandboxControl): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const pending = await control.get<WebhookEventRecord[]>('/sandbox/webhooks/events?status=pending');
    const held = await control.get<WebhookEventRecord[]>('/sandbox/webhooks/events?status=held');
    if ((pending.length === 0 && held.length === 0) || Date.now() >= deadline) return;
    await sleep(1_000);
  }
}

async function recurrenceStates(
  ctx: JourneyContext,
  run: RecurrenceRun,
): Promise<Map<string, RecurrenceState | Error>> {
  const states = new Map<string, RecurrenceState | Error>();
  for (const externalId of run.externalIds) {
    const state = await ctx.retries
      .call('getRecurrence', () => getRecurrence(ctx.starter, { externalId }))
      .catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    states.set(externalId, state);
  }
  return states;
}

/**
 * Reads every history and accounts for the delivered webhooks. A signal that reaches a workflow while one of
 * its workflow tasks is running is durable at once but written to the history only when that task ends, so an
 * event missing at the first reading is looked for again before it counts as lost.
 */
async function accountForWebhooks(
  stack: ChaosStack,
  events: WebhookEventRecord[],
  violations: Violations,
): Promise<{ runs: RunHistory[]; webhooks: ChaosReport['outcomes']['webhooks'] }> {
  for (let reading = 1; ; reading++) {
    const runs = await readAllHistories(stack.client, stack.config.temporal.encryptionKeys);
    const found = new Violations();
    const webhooks = auditWebhooks(events, runs, found);
    if (found.list.length === 0 || reading === 3) {
      violations.list.push(...found.list);
      return { runs, webhooks };
    }
    await sleep(10_000);
  }
}

/**
 * The chaos run of issue 6: many concurrent enrollment + payment journeys and a recurrence attempts sync
 * through the real stack while the bank fails and webhooks misbehave, workers are SIGKILLed, one is
 * redeployed on a new build that becomes current (issue 30), the Temporal dev server and the receiver
 * restart, and a hostile actor sends the journeys payloads that do not decrypt, plaintext and forged
 * webhooks; then an audit from the bank's records and Temporal's histories. The temporary directory
 * (database, logs) is removed after a clean run and kept, and named, after a failed one.
 */
export async function runChaos(given: Partial<ChaosOptions> = {}): Promise<ChaosReport & { dir?: string }> {
  const options = { ...defaultChaosOptions, log: () => undefined, ...given };
  const { log } = options;
  const plan = planChaos(options.seed, options.journeys);
  log(`starting the stack (Temporal dev server, sandbox bank, receiver, ${options.workers} workers)`);
  const stack = await startChaosStack(options.seed, options.workers);
  let keepDir = true;
  try {
    const bankCalls = countBankCalls(stack);
    const control = new SandboxControl(stack.sandbox.url);
    const world = await control.get<SandboxWorld>('/sandbox/world');
    const retries = new MerchantRetries(stack.client);
    const starter = { client: stack.client, taskQueue: stack.config.temporal.taskQueue };
    const ctx: JourneyContext = {
      starter,
      bank: { bank: stack.bank },
      retries,
      control,
      origin: stack.sandbox.url,
      merchant: { entityId: world.entityIds[0] ?? '', virtualAccountId: world.virtualAccountIds[0] ?? '' },
    };
    const violations = new Violations();

    const startedAt = Date.now();
    log(`chaos started; journeys arrive over ${(plan.arrivalSpanMs / 1000).toFixed(0)} s`);
    const disruptions = startDisruptions(stack, plan.disruptions, options.seed, startedAt, log);
    const hostile = startHostileActor(stack, control, options.seed, violations, log);
    stack.merchantEndpoint.scheduleDownWindow(
      plan.disruptions.merchantDownAfterRequests,
      plan.disruptions.merchantDownMs,
      (line) => log(`[${((Date.now() - startedAt) / 1000).toFixed(1)}s] ${line}`),
    );
    const recurrenceRun = prepareRecurrences(starter, retries, control, {
      seed: options.seed,
      count: Math.max(2, Math.ceil(options.journeys / 20)),
      virtualAccountId: ctx.merchant.virtualAccountId,
    });
    const recurrences = recurrenceRun.then(async (run) => {
      // A sync is of a window the bank finished writing: on a loaded machine the attempts may be posted after
      // the planned start, and the bank's reads lag its writes (get_lag_ms), so it waits for them to show as
      // well.
      await sleep(
        Math.max(readsSettleMs(options.seed), startedAt + plan.disruptions.syncStartAtMs - Date.now()),
      );
      log(`[${((Date.now() - startedAt) / 1000).toFixed(1)}s] recurrence attempts sync started`);
      await syncAttempts(starter, retries, run);
      return run;
    });
    const journeys = await runJourneys(ctx, plan, options.concurrency, startedAt, log);
    const recurrenceResult = await recurrences.catch((error: unknown): RecurrenceRun => ({
      externalIds: [],
      error: String(error),
    }));
    await hostile.stop();
    await disruptions.stop();
    for (const error of disruptions.errors) violations.add('the planned disruptions ran', 'harness', error);
    if (
      stack.temporal.restarts !== 1 ||
      stack.receiver.restarts !== 1 ||
      stack.workers.counts.killed === 0 ||
      !disruptions.deploy ||
      !disruptions.bank.credentialRotation ||
      !disruptions.bank.schemaDrift
    ) {
      violations.add(
        'the planned disruptions ran',
        'harness',
        `Temporal restarts ${stack.temporal.restarts}, receiver restarts ${stack.receiver.restarts}, worker kills ${stack.workers.counts.killed}, ` +
          `new build ${disruptions.deploy ? 'promoted' : 'not promoted'}, ` +
          `bank credential rotation ${disruptions.bank.credentialRotation ? 'begun' : 'not begun'}, ` +
          `schema drift ${disruptions.bank.schemaDrift ? 'begun' : 'not begun'}`,
      );
    }
    const durationMs = Date.now() - startedAt;

    log('auditing: waiting for the bank to finish delivering webhooks');
    await settleWebhooks(control);
    const bank: BankRecords = {
      payments: await control.get<KnownBiometricPayment[]>('/sandbox/biometrics/payments'),
      authorizeCalls: await control.get<BankRecords['authorizeCalls']>('/sandbox/biometrics/authorize-calls'),
      enrollments: await control.get<KnownEnrollment[]>('/sandbox/biometrics/enrollments'),
      attempts: [...stack.sandbox.state.bankData.attempts.values()].filter(
        (attempt) => attempt.timestamp >= syncWindow.from && attempt.timestamp < syncWindow.to,
      ),
      recurrences: [...stack.sandbox.state.bankData.recurrences.values()].filter((recurrence) =>
        recurrenceResult.externalIds.includes(recurrence.external_id),
      ),
    };
    const events = await control.get<WebhookEventRecord[]>('/sandbox/webhooks/events');
    const deliveries = await control.get<DeliveryAttempt[]>('/sandbox/webhooks/deliveries');
    const faults = await control.get<{ settings: FaultSettings; injected: FaultInjector['injected'] }>(
      '/sandbox/faults',
    );

    const owed = expectedFinalEvents(journeys, bank);
    log(`auditing: waiting for the merchant to accept the ${owed.length} final notifications owed`);
    await drainNotifications(stack.merchantEndpoint, owed, notificationsDrainMs);
    auditNotifications(stack.merchantEndpoint, owed, bank, violations);

    auditJourneys(journeys, bank, violations);
    auditRecurrences(
      recurrenceResult,
      bank.attempts,
      await recurrenceStates(ctx, recurrenceResult),
      violations,
    );
    log('auditing: reading every workflow history');
    const { runs, webhooks } = await accountForWebhooks(stack, events, violations);
    auditWorkflows(runs, violations);
    const builds = auditBuilds(runs, disruptions.deploy, violations);
    auditConfirmedOutcomes(runs, bank, violations);
    auditReadEndings(runs, violations);
    await auditPendingTasks(stack.client, runs, violations);

    const result = summarize(
      options,
      {
        durationMs,
        journeys,
        stack,
        retries,
        injected: faults.injected,
        disruptionPlan: plan.disruptions,
        getLagMs: faults.settings.get_lag_ms,
        bankCalls: bankCalls.count,
        events,
        deliveries,
        bank,
        runs,
        recurrences: recurrenceResult,
        webhooks,
        hostile: hostile.counts,
        builds,
        notifications: {
          owed: owed.length,
          ...stack.merchantEndpoint.counts,
          downMs: stack.merchantEndpoint.down
            ? stack.merchantEndpoint.down.to - stack.merchantEndpoint.down.from
            : 0,
          refusedWhileDown: refusalsWhileDown(stack.dir, stack.merchantEndpoint.down),
        },
      },
      violations,
    );
    keepDir = options.keep || result.violations.length > 0;
    if (keepDir) writeFileSync(path.join(stack.dir, 'journeys.json'), JSON.stringify(journeys, null, 2));
    return keepDir ? { ...result, dir: stack.dir } : result;
  } finally {
    await stack.stop();
    if (keepDir) log(`kept ${stack.dir} (Temporal database, harness and worker logs)`);
    else rmSync(stack.dir, { recursive: true, force: true });
  }
}

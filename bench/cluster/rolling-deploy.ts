import { spawn, type ChildProcess } from 'node:child_process';
import { randomInt, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { WorkflowNotFoundError } from '@temporalio/client';
import { SoftwareAuthenticator } from '../../devkit/authenticator/software-authenticator.js';
import { sandboxControl } from '../../devkit/cli/demo/sandbox-control.js';
import { workflowIds } from '../../src/contract/ids.js';
import {
  authorizePayment,
  findOrCreateDevice,
  getRegistrationOptions,
  listParticipants,
  registerCredential,
  startPayment,
  waitForEnrollment,
  waitForPaymentResult,
  type StartedPayment,
} from '../../src/starter/index.js';
import { startTunedEnrollment } from '../../src/starter/enrollments.js';
import { listVersions, type DeploymentTarget, type VersionView } from '../../src/temporal/deployments.js';
import { runsOf } from '../../devkit/temporal/runs.js';
import { buildBMemoKey, buildOf, memoOf, workflowTaskFailures } from '../../devkit/versioning/build-b.js';
import { alive } from './cluster-process.js';
import { bankflow } from './operator.js';
import type { Outcome, ScenarioContext } from './scenarios.js';

const workerBEntry = fileURLToPath(new URL('../../devkit/versioning/worker-b.ts', import.meta.url));
/** The enrollment's run lifetime: the least a start may ask for (src/contract/journeys.ts). */
const enrollmentLifetimeMs = 60_000;
const paymentsOnA = 3;
const paymentsOnB = 2;

export interface RollingDeployContext extends ScenarioContext {
  /** The environment `bankflow worker` and `bankflow deployments` run with against the cluster. */
  env: Record<string, string>;
  deploymentName: string;
}

/**
 * Every promise's value once all of them settled, else the first failure: a step that fails leaves no call
 * running on the client that main.ts closes after it.
 */
async function allOf<T>(promises: Promise<T>[]): Promise<T[]> {
  const values: T[] = [];
  for (const result of await Promise.allSettled(promises)) {
    if (result.status === 'rejected') throw result.reason;
    values.push(result.value);
  }
  return values;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not so after ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

/** A worker process of build B; its build id is the first thing it prints. */
function startWorkerB(env: Record<string, string>): { child: ChildProcess; buildId: Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', workerBEntry], {
    env: { ...env, WORKER_VERSION_PROMOTION: 'never' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const buildId = new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{"buildId"'));
      if (line) resolve((JSON.parse(line) as { buildId: string }).buildId);
    });
    child.once('exit', (code) => reject(new Error(`a build B worker exited (${code}) before it ran`)));
  });
  return { child, buildId };
}

async function stopProcess(pid: number, child?: ChildProcess): Promise<void> {
  if (pid === 0 || !alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  if (child && child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  else while (alive(pid)) await sleep(200);
}

/** A customer at the sandbox with an authorized enrollment whose runs last `enrollmentLifetimeMs`. */
async function enrolledCustomer(ctx: ScenarioContext) {
  const control = sandboxControl(ctx.sandboxUrl, ctx.sandboxToken);
  const authenticator = SoftwareAuthenticator.create();
  const customerTaxNumber = String(randomInt(10_000_000_000, 99_999_999_999));
  const device = await findOrCreateDevice(ctx.bank, {
    fingerprint: `rolling-${randomUUID()}`,
    counterparty_tax_number: customerTaxNumber,
    counterparty_name: 'Rolling Deploy',
  });
  const participants = await listParticipants(ctx.bank, { deviceId: device.id });
  const participant = participants.find((p) => p.is_enrollment_available && !p.unavailable);
  if (!participant) throw new Error('the sandbox has no participant open for enrollment');
  const key = { deviceId: device.id, participantId: participant.id };
  const started = await startTunedEnrollment(
    ctx,
    { ...key, returnToUrl: 'https://merchant.example.com/pix/enrolled', customerTaxNumber },
    { maxRunMs: enrollmentLifetimeMs },
  );
  await control.authorizeAtBank(started.enrollmentId);
  // The options request waits in the workflow until the bank's authorization reached it.
  const options = await getRegistrationOptions(ctx, key);
  await registerCredential(ctx, {
    ...key,
    assertion: authenticator.createCredential(options, ctx.sandboxUrl),
  });
  const result = await waitForEnrollment(ctx, key);
  if (result.outcome !== 'authorized') throw new Error(`the enrollment ended ${result.outcome}`);
  const world = await control.world();
  return {
    workflowId: started.workflowId,
    startPayment: (label: string) =>
      startPayment(ctx, {
        externalId: `rolling-${label}-${randomUUID()}`,
        enrollmentId: started.enrollmentId,
        deviceId: device.id,
        amountCents: 1050,
        description: `rolling deploy ${label}`,
        entityId: world.entityIds[0] ?? '',
        virtualAccountId: world.virtualAccountIds[0] ?? '',
        customerTaxNumber,
      }),
    /**
     * The customer's assertion, signed as it is sent: the bank refuses a sign counter that did not move past
     * the last one it took, so assertions reach it in the order they were signed, one at a time.
     */
    authorize: async (payment: StartedPayment) => {
      const assertion = authenticator.getAssertion(payment.publicKeyEncoded, ctx.sandboxUrl);
      const authorized = await authorizePayment(ctx, { externalId: payment.externalId, assertion });
      if (!authorized.ok) {
        throw new Error(`payment ${payment.externalId} not authorized: ${authorized.reason}`);
      }
    },
    /** The payment's result, which must be a settlement. */
    settled: async (payment: StartedPayment) => {
      const paid = await waitForPaymentResult(ctx, { externalId: payment.externalId });
      if (paid.outcome !== 'settled') throw new Error(`payment ${payment.externalId} ended ${paid.outcome}`);
      // The cash-in holder the receiver started for the settlement's Pix, when its event came.
      return paid.endToEndId ? workflowIds.cashIn(paid.endToEndId) : undefined;
    },
  };
}

/** Those of the settlements' cash-in holders that were started (a cash-in event may not have come). */
async function startedHolders(ctx: ScenarioContext, ids: (string | undefined)[]): Promise<string[]> {
  const started: string[] = [];
  for (const id of ids) {
    if (!id) continue;
    try {
      await ctx.client.workflow.getHandle(id).describe();
      started.push(id);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
    }
  }
  return started;
}

/**
 * `bankflow deployments drained <A>` until it exits 0 or `timeoutMs` passes; when it does not, the reason
 * names the workflow types of the runs still pinned to A.
 */
async function drainOf(
  ctx: RollingDeployContext,
  target: DeploymentTarget,
  buildA: string,
  stepStartedAt: Date,
  timeoutMs: number,
) {
  const started = performance.now();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await bankflow(['deployments', 'drained', buildA], ctx.env);
    const seconds = ((performance.now() - started) / 1000).toFixed(0);
    if (answer.code === 0) return { drained: true, seconds, reason: '' };
    if (Date.now() > deadline) {
      const types = new Map<string, number>();
      const query =
        `TemporalWorkerDeploymentVersion = '${target.deploymentName}:${buildA}' AND ` +
        `TemporalWorkflowVersioningBehavior = 'Pinned' AND ExecutionStatus = 'Running'`;
      for await (const run of ctx.client.workflow.list({ query })) {
        const type = `${run.type} started ${run.startTime < stepStartedAt ? 'before' : 'in'} this step`;
        types.set(type, (types.get(type) ?? 0) + 1);
      }
      const pinned = [...types].map(([type, count]) => `${count} ${type}`).join(', ');
      return { drained: false, seconds, reason: `${answer.output.trim().replace(/\s+/g, ' ')} (${pinned})` };
    }
    await sleep(2_000);
  }
}

/** `A 3 pinned + 1 auto-upgrade` for each version: the open runs `bankflow deployments list` counts. */
const perVersion = (versions: VersionView[], names: Record<string, string>) =>
  versions
    .filter((version) => names[version.buildId])
    .map((v) => `${names[v.buildId]} ${v.state} ${v.openPinned} pinned + ${v.openAutoUpgrade} auto-upgrade`)
    .join(', ');

/**
 * A rolling deploy as docs/upgrading-workflows.md tells an operator to run it, from the cluster's build A to
 * a build B whose payment decides differently (one more memo upsert): B's workers start beside A's, `bankflow
 * deployments promote` makes B current, A's open payments finish on A while new ones run on B, an authorized
 * enrollment's next run (after its one-minute lifetime) starts on B, `bankflow deployments move` sends the
 * other long-lived runs on A to B, `bankflow deployments drained` tells when A can stop, and B alone carries
 * a payment after A's workers got SIGTERM. No workflow task may fail.
 */
export async function rollingDeploy(ctx: RollingDeployContext): Promise<Outcome> {
  const target: DeploymentTarget = {
    service: ctx.client.connection,
    namespace: ctx.client.options.namespace,
    deploymentName: ctx.deploymentName,
    taskQueue: ctx.taskQueue,
  };
  const buildA = (await listVersions(target)).find((version) => version.state === 'current')?.buildId;
  if (!buildA) throw new Error(`deployment ${ctx.deploymentName} has no current version`);
  const workersB: ChildProcess[] = [];
  const stepStartedAt = new Date();
  try {
    // B's workers poll before A's payments start: B's build, slow on a busy machine, eats no consent window.
    const startedB = [startWorkerB(ctx.env), startWorkerB(ctx.env)];
    workersB.push(...startedB.map((worker) => worker.child));
    const [buildB] = [...new Set(await allOf(startedB.map((worker) => worker.buildId)))];
    if (!buildB || buildB === buildA) throw new Error(`build B's id ${buildB} is not a new version`);
    const names = { [buildA]: 'A', [buildB]: 'B' };
    ctx.log(
      `    build A ${buildA}; build B ${buildB}, pids ${workersB.map((child) => child.pid).join(', ')}`,
    );
    await until(
      'build B polls',
      () => listVersions(target),
      (versions) => versions.some((version) => version.buildId === buildB && version.pollers >= 2),
      120_000,
    );

    const customer = await enrolledCustomer(ctx);
    const enrolledAt = Date.now();
    const onA = await allOf(
      Array.from({ length: paymentsOnA }, (_, index) => customer.startPayment(`a${index + 1}`)),
    );
    const before = await listVersions(target);

    const promotedAt = performance.now();
    const promotedAtTime = Date.now();
    const promote = await bankflow(['deployments', 'promote', buildB], ctx.env);
    if (promote.code !== 0) throw new Error(`deployments promote: ${promote.output.slice(-400)}`);
    ctx.log(`    ${promote.output.trim().replace(/\s+/g, ' ')}`);

    const onB = await allOf(
      Array.from({ length: paymentsOnB }, (_, index) => customer.startPayment(`b${index + 1}`)),
    );
    for (const payment of [...onA, ...onB]) await customer.authorize(payment);
    const holders = await allOf([...onA, ...onB].map((payment) => customer.settled(payment)));
    const problems: string[] = [];
    const expectBuild = async (payment: StartedPayment, build: string) => {
      const ran = await buildOf(ctx.client, payment.workflowId);
      const memo = await memoOf(ctx.client, payment.workflowId);
      const tookB = buildBMemoKey in memo;
      if (ran !== build || tookB !== (build === buildB)) {
        problems.push(`${payment.workflowId} ran on ${names[ran ?? ''] ?? ran}, B's memo ${tookB}`);
      }
    };
    for (const payment of onA) await expectBuild(payment, buildA);
    for (const payment of onB) await expectBuild(payment, buildB);

    // A's own payments: when the last of them closed, whatever else holds A.
    const closedAt = await allOf(
      onA.map(
        async (payment) => (await ctx.client.workflow.getHandle(payment.workflowId).describe()).closeTime,
      ),
    );
    const paymentsOnAClosedSeconds =
      (Math.max(...closedAt.map((time) => time?.getTime() ?? Number.NaN)) - promotedAtTime) / 1000;
    // The long-lived runs still pinned to A (the step's cash-in holders, earlier steps' recurrences and
    // outboxes) take no task of their own until their daily wake: asked, each continues as new onto B.
    const move = await bankflow(['deployments', 'move', buildA], ctx.env);
    if (move.code !== 0) throw new Error(`deployments move: ${move.output.slice(-400)}`);
    const moved = {
      signalled: /"signalled": (\d+)/.exec(move.output)?.[1] ?? '?',
      failed: /"failed": (\d+)/.exec(move.output)?.[1] ?? '?',
    };
    const drain = await drainOf(ctx, target, buildA, stepStartedAt, 90_000);
    if (!drain.drained) problems.push(`A not drained after ${drain.seconds} s: ${drain.reason}`);
    const drainSeconds = (performance.now() - promotedAt) / 1000;

    const workersA = ctx.cluster.pids.workers.filter(alive);
    await allOf(workersA.map((pid) => stopProcess(pid)));
    const afterA = await customer.startPayment('after-a');
    await customer.authorize(afterA);
    holders.push(await customer.settled(afterA));
    await expectBuild(afterA, buildB);
    const runs = await until(
      'the enrollment continued as new',
      () => runsOf(ctx.client, customer.workflowId),
      (all) => all.length >= 2,
      Math.max(enrollmentLifetimeMs - (Date.now() - enrolledAt), 0) + 60_000,
    );
    // Its new run's first task completes a moment after the run is created.
    const nextRunBuild = await until(
      "the enrollment's next run's first task",
      () => buildOf(ctx.client, customer.workflowId, runs[1]?.runId),
      (build) => build !== undefined,
      30_000,
    );
    if (nextRunBuild !== buildB) problems.push(`the enrollment's next run ran on ${nextRunBuild}`);

    const after = await listVersions(target);

    const workflowIdsOfStep = [
      customer.workflowId,
      ...[...onA, ...onB, afterA].map((payment) => payment.workflowId),
      ...(await startedHolders(ctx, holders)),
    ];
    let failures = 0;
    let nondeterminism = 0;
    for (const workflowId of workflowIdsOfStep) {
      const counted = await workflowTaskFailures(ctx.client, workflowId);
      failures += counted.failures;
      nondeterminism += counted.nondeterminism;
    }
    if (failures > 0) problems.push(`${failures} workflow task failures (${nondeterminism} nondeterminism)`);
    return {
      ok: problems.length === 0,
      detail:
        `${problems.length ? `${problems.join('; ')}; ` : ''}` +
        `before: ${perVersion(before, names)}; after: ${perVersion(after, names)}; ` +
        `${paymentsOnA} payments settled on A, ${paymentsOnB} + 1 on B (the last with A's ${workersA.length} ` +
        `worker(s) stopped), the enrollment's next run on ${names[nextRunBuild ?? ''] ?? nextRunBuild}; ` +
        `A's payments closed ${paymentsOnAClosedSeconds.toFixed(1)} s after the promotion, A ` +
        `${drain.drained ? 'drained' : 'not drained'} ${drainSeconds.toFixed(1)} s after it, ` +
        `\`deployments move\` having signalled ${moved.signalled} long-lived run(s) (${moved.failed} failed); ` +
        `${workflowIdsOfStep.length} workflows: ` +
        `${failures} workflow task failures, ${nondeterminism} nondeterminism errors`,
    };
  } finally {
    await Promise.all(workersB.map((child) => stopProcess(child.pid ?? 0, child)));
  }
}

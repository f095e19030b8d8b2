import { randomUUID } from 'node:crypto';
import { NativeConnection } from '@temporalio/worker';
import { pino } from 'pino';
import { listVersions } from '../../src/temporal/deployments.js';
import { warnUnlessCurrent } from '../../src/temporal/unpromoted-version.js';
import { createBankflowWorker, type BankflowWorker } from '../../src/worker.js';
import { testEnvKeys } from '../setup/shared.js';
import { cliEnvFor, cliTestTimeoutMs, workerProcessEnv } from '../helpers/cli-env.js';
import { cleanExit, runCli, startCli, stopCli, type StoppedCli } from '../helpers/cli.js';
import { eventually } from '../helpers/journey.js';
import { encryptionKeys, required, startTestStack, type TestStack } from '../helpers/stack.js';

interface Check {
  name: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/** The warnings a logger received, one message each. */
function recordingLogger() {
  const messages: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => messages.push(JSON.parse(line).msg) });
  return { logger, messages };
}

describe('bankflow doctor, worker deployment', () => {
  /** A deployment of its own, with no version yet: the stack's worker serves another queue and deployment. */
  const taskQueue = `doctor-deployment-${randomUUID()}`;
  const [first, other] = ['doctor-first-build', 'doctor-other-build'];
  let stack: TestStack;
  let connection: NativeConnection;
  let env: Record<string, string>;
  const running: { worker: BankflowWorker; run: Promise<void> }[] = [];
  const pinnedIds: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack();
    env = { ...cliEnvFor(stack), TEMPORAL_TASK_QUEUE: taskQueue };
    connection = await NativeConnection.connect({ address: required(testEnvKeys.address) });
  });
  afterAll(async () => {
    for (const workflowId of pinnedIds)
      await stack.client.workflow.getHandle(workflowId).terminate('test over');
    for (const { worker, run } of running) {
      worker.shutdown();
      await run;
    }
    await connection?.close();
    await stack?.stop();
  });

  const target = () => ({
    service: stack.client.connection,
    namespace: required(testEnvKeys.namespace),
    deploymentName: taskQueue,
    taskQueue,
  });
  /** A worker of the deployment with `buildId`, polling `queue`, which does not promote itself. */
  async function startVersion(buildId: string, queue: string) {
    const worker = await createBankflowWorker({
      connection,
      namespace: required(testEnvKeys.namespace),
      taskQueue: queue,
      bank: stack.bank,
      jobs: stack.jobs,
      encryptionKeys,
      logger: stack.logger,
      workflowBundle: { codePath: required(testEnvKeys.bundle) },
      deployment: { name: taskQueue, buildId },
    });
    running.push({ worker, run: worker.run() });
    await eventually(
      () => listVersions(target()),
      (versions) =>
        versions.some(
          (version) => version.buildId === buildId && (queue !== taskQueue || version.pollers > 0),
        ),
      60_000,
    );
  }
  const doctor = async () => {
    const result = await runCli(['doctor', '--as', 'worker', '--json'], env);
    const report = JSON.parse(result.stdout) as { checks: Check[] };
    const names = ['worker deployment', 'current version', 'ramping version', 'pinned runs'];
    return { code: result.code, checks: report.checks.filter((check) => names.includes(check.name)) };
  };
  const warn = (buildId: string, deploymentName = taskQueue) => {
    const { logger, messages } = recordingLogger();
    const outcome = warnUnlessCurrent({
      connection,
      namespace: required(testEnvKeys.namespace),
      version: { deploymentName, buildId },
      logger,
      recheckMs: 200,
    });
    return outcome.then((found) => ({ found, messages }));
  };

  it(
    'fails while no version is current, naming the promote command, and passes once it is promoted',
    async () => {
      const none = await doctor();
      expect(none.code).toBe(1);
      expect(none.checks).toEqual([
        {
          name: 'worker deployment',
          ok: false,
          detail: `no worker of deployment ${taskQueue} has polled ${taskQueue} yet`,
          fix: `start the workers (bankflow worker, TEMPORAL_DEPLOYMENT_NAME=${taskQueue})`,
        },
      ]);

      await startVersion(first, taskQueue);
      const unpromoted = await doctor();
      expect(unpromoted.code).toBe(1);
      expect(unpromoted.checks).toEqual([
        { name: 'worker deployment', ok: true, detail: `${taskQueue}: 1 version(s)` },
        {
          name: 'current version',
          ok: false,
          detail: `deployment ${taskQueue} has no current version: no worker gets a workflow task, every run waits`,
          fix: `bankflow deployments promote ${first}`,
        },
        expect.objectContaining({ name: 'pinned runs', ok: true }),
      ]);
      const text = await runCli(['doctor', '--as', 'worker'], env);
      expect(text.stdout).toMatch(/FAIL {2}current version +deployment \S+ has no current version/);
      expect(text.stdout).toContain(`fix: bankflow deployments promote ${first}`);

      const promoted = await runCli(['deployments', 'promote', first], env);
      expect(promoted.code).toBe(0);
      const after = await doctor();
      expect(after.checks).toEqual([
        { name: 'worker deployment', ok: true, detail: `${taskQueue}: 1 version(s)` },
        { name: 'current version', ok: true, detail: `${first}, 1 poller(s) on ${taskQueue}` },
        { name: 'pinned runs', ok: true, detail: '0 open run(s) pinned, each on a version with pollers' },
      ]);
    },
    cliTestTimeoutMs,
  );

  it(
    'reports a ramping version and the runs pinned to a version, with the workers that serve them',
    async () => {
      // Temporal pins a run only to a version that polls its task queue, and ramps only such a version: a
      // version whose workers stopped is still listed as polling for minutes (the server keeps its pollers
      // that long), so the reports of a version nothing serves are held by
      // test/unit/deployment-checks.test.ts.
      await startVersion(other, taskQueue);
      const workflowId = `doctor-pinned-${randomUUID()}`;
      // The server takes a pin to the version a moment after it lists the version's pollers: until then it
      // refuses the start with FAILED_PRECONDITION ("not present in task queue").
      await eventually(
        () =>
          stack.client.workflow
            .start('cancelBoletoWorkflow', {
              taskQueue,
              workflowId,
              args: [],
              // Open, and pinned, without a task yet.
              startDelay: '1 hour',
              versioningOverride: { pinnedTo: { deploymentName: taskQueue, buildId: other } },
            })
            .then(
              () => true,
              (error: unknown) => {
                if (String((error as Error).cause ?? error).includes('is not present in task queue'))
                  return false;
                throw error;
              },
            ),
        (started) => started,
        30_000,
      );
      pinnedIds.push(workflowId);
      await eventually(
        () => listVersions(target()),
        (versions) => versions.some((version) => version.buildId === other && version.openPinned === 1),
        30_000,
      );
      expect((await runCli(['deployments', 'ramp', other, '--percent', '10'], env)).code).toBe(0);

      const report = await doctor();
      expect(report.checks).toEqual([
        { name: 'worker deployment', ok: true, detail: `${taskQueue}: 2 version(s)` },
        expect.objectContaining({ name: 'current version', ok: true }),
        {
          name: 'ramping version',
          ok: true,
          detail: expect.stringMatching(
            new RegExp(`^${other} takes 10% of new runs, [1-9]\\d* poller\\(s\\)$`),
          ),
        },
        { name: 'pinned runs', ok: true, detail: '1 open run(s) pinned, each on a version with pollers' },
      ]);
      expect((await runCli(['deployments', 'ramp', other, '--percent', '0'], env)).code).toBe(0);
    },
    cliTestTimeoutMs,
  );

  it(
    '`bankflow worker` that leaves promotion to an operator warns at start that no version is current',
    async () => {
      const worker = startCli(
        ['worker'],
        workerProcessEnv(stack, {
          TEMPORAL_TASK_QUEUE: `doctor-worker-${randomUUID()}`,
          WORKER_VERSION_PROMOTION: 'never',
        }),
      );
      let exit: StoppedCli | undefined;
      try {
        const line = await worker.waitFor(/.*has no current version: no worker gets a workflow task.*/);
        expect(JSON.parse(line)).toMatchObject({ level: 40 });
        expect(line).toMatch(
          /`bankflow deployments promote [0-9a-f]{20}` makes this worker's version current/,
        );
      } finally {
        exit = await stopCli(worker);
      }
      expect(exit).toEqual(cleanExit);
    },
    cliTestTimeoutMs,
  );

  it('warns a worker whose version is not current, twice while the deployment has none, never once it is', async () => {
    const none = await warn(first, `never-polled-${randomUUID()}`);
    expect(none.found).toBe('no-current');
    expect(none.messages).toHaveLength(2);
    expect(none.messages[0]).toMatch(/has no current version: no worker gets a workflow task/);
    expect(none.messages[1]).toMatch(/has no current version still, 0 s after this worker started/);
    expect(none.messages[0]).toContain(`\`bankflow deployments promote ${first}\``);

    expect(await warn(first)).toEqual({ found: 'current', messages: [] });
    const notCurrent = await warn(other);
    expect(notCurrent.found).toBe('other-current');
    expect(notCurrent.messages).toEqual([
      `worker version ${other} is not the current version of deployment ${taskQueue} (${first} is): it gets no ` +
        `new run until \`bankflow deployments promote ${other}\``,
    ]);
  });
});

import { NativeConnection } from '@temporalio/worker';
import { workflowIds } from '../../src/contract/ids.js';
import { promoteOwnVersion } from '../../src/temporal/worker-deployment.js';
import { createBankflowWorker, type BankflowWorker } from '../../src/worker.js';
import { testEnvKeys } from '../setup/shared.js';
import { cliEnvFor, cliTestTimeoutMs } from '../helpers/cli-env.js';
import { runCli } from '../helpers/cli.js';
import { enroll, eventually, newCustomer } from '../helpers/journey.js';
import { buildOf } from '../../devkit/versioning/build-b.js';
import { runsOf } from '../../devkit/temporal/runs.js';
import { encryptionKeys, required, startTestStack, type TestStack } from '../helpers/stack.js';

/**
 * A second build on the stack's task queue: the same workflow code under another build id, as a deploy
 * starts.
 */
const newBuild = 'cli-test-new-build';

describe('bankflow deployments', () => {
  let stack: TestStack;
  let connection: NativeConnection;
  let worker: BankflowWorker;
  let running: Promise<void>;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startTestStack();
    env = cliEnvFor(stack);
    connection = await NativeConnection.connect({ address: required(testEnvKeys.address) });
    worker = await createBankflowWorker({
      connection,
      namespace: required(testEnvKeys.namespace),
      taskQueue: stack.taskQueue,
      bank: stack.bank,
      jobs: stack.jobs,
      encryptionKeys,
      logger: stack.logger,
      workflowBundle: { codePath: required(testEnvKeys.bundle) },
      deployment: { name: stack.taskQueue, buildId: newBuild },
    });
    running = worker.run();
  });
  afterAll(async () => {
    if (worker) {
      worker.shutdown();
      await running;
      await connection.close();
    }
    await stack?.stop();
  });

  const cli = (args: string[]) => runCli(['deployments', ...args], env);
  const json = async (args: string[]) => {
    const result = await cli(args);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout);
  };

  it("leaves the current version alone when the new worker's promotion is never or if-no-current", async () => {
    const version = { deploymentName: stack.taskQueue, buildId: newBuild };
    for (const promotion of ['never', 'if-no-current'] as const) {
      expect(
        await promoteOwnVersion({
          connection,
          namespace: required(testEnvKeys.namespace),
          taskQueue: stack.taskQueue,
          version,
          promotion,
          logger: stack.logger,
        }),
      ).toBe('left-to-operator');
    }
    expect(await json(['list'])).toEqual([
      expect.objectContaining({ buildId: newBuild, state: 'inactive' }),
      expect.objectContaining({ buildId: required(testEnvKeys.buildId), state: 'current' }),
    ]);
  });

  it(
    "lists the versions, ramps and promotes the new one, moves the old one's long-lived runs, and says when it is drained",
    async () => {
      const old = required(testEnvKeys.buildId);
      // An authorized enrollment lives for months, pinned to the version it started on.
      const customer = await newCustomer(stack);
      await enroll(stack, customer);
      const enrollmentId = workflowIds.enrollment(customer.deviceId, customer.participantId);
      const versions = await eventually(
        () => json(['list']),
        (listed: { buildId: string; pollers: number }[]) =>
          listed.length === 2 && listed.every((version) => version.pollers === 1),
        60_000,
      );
      expect(versions).toEqual([
        expect.objectContaining({ buildId: newBuild, state: 'inactive', openPinned: 0 }),
        expect.objectContaining({ buildId: old, state: 'current', rampPercent: null }),
      ]);
      expect((await cli(['list', '--ids'])).stdout.trim().split('\n')).toEqual([newBuild, old]);
      expect((await cli(['list', '--table'])).stdout).toMatch(/BUILD ID\s+STATE\s+OPEN PINNED/);

      expect(await json(['ramp', newBuild, '--percent', '25'])).toEqual({
        deployment: stack.taskQueue,
        ramping: newBuild,
        percent: 25,
      });
      expect(await json(['list'])).toEqual([
        expect.objectContaining({ buildId: newBuild, state: 'ramping', rampPercent: 25 }),
        expect.objectContaining({ buildId: old, state: 'current' }),
      ]);
      const tooMuch = await cli(['ramp', newBuild, '--percent', '150']);
      expect({ code: tooMuch.code, stderr: tooMuch.stderr }).toEqual({
        code: 1,
        stderr: 'error: --percent: must be a number from 0 to 100 (got 150)\n',
      });

      expect(await json(['promote', newBuild])).toEqual({
        deployment: stack.taskQueue,
        current: newBuild,
        previous: old,
      });
      // The enrollment takes no task until its daily wake: it holds the old version until asked to move.
      const held = await cli(['drained', old]);
      expect(held.code).toBe(1);
      expect(JSON.parse(held.stdout)).toMatchObject({
        drained: false,
        openPinned: 1,
        reason: '1 open run(s) pinned to it',
      });
      expect(await json(['move', old])).toEqual({
        buildId: old,
        jobId: expect.stringMatching(/^bankflow-move-/),
        signalled: 1,
        failed: 0,
      });
      const runs = await eventually(
        () => runsOf(stack.client, enrollmentId),
        (all) => all.length === 2,
        60_000,
      );
      expect(await buildOf(stack.client, enrollmentId, runs[0]?.runId)).toBe(old);
      expect(
        await eventually(
          () => buildOf(stack.client, enrollmentId, runs[1]?.runId),
          (build) => build !== undefined,
          30_000,
        ),
      ).toBe(newBuild);
      await eventually(
        () => cli(['drained', old]),
        (answer) => answer.code === 0,
        60_000,
      );
      expect(await json(['drained', old])).toMatchObject({ buildId: old, drained: true, openPinned: 0 });
      const moveCurrent = await cli(['move', newBuild]);
      expect({ code: moveCurrent.code, stderr: moveCurrent.stderr }).toEqual({
        code: 1,
        stderr: `error: <build-id>: ${newBuild} is the current version: its runs have nowhere to move\n`,
      });
      const current = await cli(['drained', newBuild]);
      expect(current.code).toBe(1);
      expect(JSON.parse(current.stdout)).toMatchObject({
        drained: false,
        reason: 'it is the current version: promote another first',
      });
      const unknown = await cli(['promote', 'no-such-build']);
      expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
        code: 1,
        stderr: `error: <build-id>: no version no-such-build in deployment ${stack.taskQueue}\n`,
      });
    },
    cliTestTimeoutMs,
  );
});

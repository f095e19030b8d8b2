import { randomUUID } from 'node:crypto';
import { NativeConnection } from '@temporalio/worker';
import { workflowIds } from '../../src/contract/ids.js';
import { workerTaskQueues } from '../../src/contract/task-queues.js';
import { authorizePayment, waitForPaymentResult } from '../../src/starter/index.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import {
  listVersions,
  promoteVersion,
  versionDrainage,
  type DeploymentTarget,
} from '../../src/temporal/deployments.js';
import { createBankflowWorker, type BankflowWorker } from '../../src/worker.js';
import { testEnvKeys } from '../setup/shared.js';
import { enroll, eventually, newCustomer, payAndSettle, world, type Customer } from '../helpers/journey.js';
import { runsOf } from '../../devkit/temporal/runs.js';
import { encryptionKeys, required, startTestStack, type TestStack } from '../helpers/stack.js';
import {
  buildBMemoKey,
  buildOf,
  bundleBuildB,
  memoOf,
  workflowTaskFailures,
} from '../../devkit/versioning/build-b.js';

/**
 * A rolling deploy on the dev server, the smallest that shows both behaviors: build A (the run's workflow
 * bundle, the stack's worker) and build B (the same workflows, whose payment makes one more decision) serve one
 * task queue in one Worker Deployment. A payment A started stays on A after B is promoted, while a new one runs
 * on B; an authorized enrollment (auto-upgrade) moves to B, and its next run, after continuing as new on its
 * one-minute lifetime, starts on B. A then drains and its worker stops.
 */
describe('worker versioning: a rolling deploy from build A to build B', () => {
  let stack: TestStack;
  let workerB: { worker: BankflowWorker; running: Promise<void>; connection: NativeConnection } | undefined;

  beforeAll(async () => {
    stack = await startTestStack({ receiver: true });
  });
  afterAll(async () => {
    if (workerB) {
      workerB.worker.shutdown();
      await workerB.running;
      await workerB.connection.close();
    }
    await stack?.stop();
  });

  it('pins payments to the build that started them and moves the enrollment to the promoted build', async () => {
    const buildA = required(testEnvKeys.buildId);
    const target: DeploymentTarget = {
      service: stack.client.connection,
      namespace: stack.client.options.namespace,
      deploymentName: stack.taskQueue,
      taskQueue: stack.taskQueue,
    };
    expect(await listVersions(target)).toEqual([
      expect.objectContaining({ buildId: buildA, state: 'current', pollers: 1 }),
    ]);

    // On A: an enrollment with a one-minute lifetime, and a payment left waiting for the customer's consent.
    const customer: Customer = await newCustomer(stack);
    const enrollmentStartedAt = Date.now();
    const { started, result } = await enroll(stack, customer, { maxRunMs: 60_000 });
    if (result.outcome !== 'authorized') throw new Error(`the enrollment ended ${result.outcome}`);
    const enrollmentId = workflowIds.enrollment(customer.deviceId, customer.participantId);
    const onA = `versioning-a-${randomUUID()}`;
    const createdOnA = await startTunedPayment(
      stack,
      {
        externalId: onA,
        enrollmentId: started.enrollmentId,
        deviceId: customer.deviceId,
        amountCents: 1050,
        description: 'Pedido A',
        ...world(stack),
      },
      { cashInWaitMs: 2_000 },
    );
    expect(await buildOf(stack.client, workflowIds.payment(onA))).toBe(buildA);

    // B: the same workflows, but its payment decides differently; a worker of it beside A's, then promoted.
    const { code: codeB, buildId: buildB } = await bundleBuildB();
    expect(buildB).not.toBe(buildA);
    const connection = await NativeConnection.connect({ address: required(testEnvKeys.address) });
    const worker = await createBankflowWorker({
      connection,
      namespace: target.namespace,
      taskQueue: stack.taskQueue,
      bank: stack.bank,
      jobs: stack.jobs,
      encryptionKeys,
      logger: stack.logger,
      workflowBundle: { code: codeB },
      deployment: { name: target.deploymentName, buildId: buildB },
    });
    workerB = { worker, running: worker.run(), connection };
    // A version registers each of its task queues at its first poll there; promoting it is refused, and its
    // deployment's record briefly unreadable, until all of them did, as a worker's own promotion waits for.
    await eventually(
      async () =>
        (
          await stack.client.connection.workflowService
            .describeWorkerDeploymentVersion({
              namespace: target.namespace,
              deploymentVersion: { deploymentName: target.deploymentName, buildId: buildB },
            })
            .catch(() => undefined)
        )?.workerDeploymentVersionInfo?.taskQueueInfos?.map((queue) => queue.name) ?? [],
      (served) => workerTaskQueues(stack.taskQueue).every((queue) => served.includes(queue)),
    );
    await eventually(
      () => listVersions(target),
      (versions) => versions.some((version) => version.buildId === buildB && version.pollers > 0),
    );
    expect(await promoteVersion(target, buildB, 'versioning test')).toEqual({
      deployment: target.deploymentName,
      current: buildB,
      previous: buildA,
    });
    expect(await versionDrainage(target, buildA)).toMatchObject({
      drained: false,
      state: 'draining',
      openPinned: 1,
    });

    // A new payment runs on B and takes B's decision; A's payment finishes on A without it.
    const settle = (externalId: string, amountCents: number) =>
      payAndSettle(stack, customer, {
        externalId,
        enrollmentId: started.enrollmentId,
        amountCents,
        description: `Pedido ${externalId}`,
      });
    const onB = `versioning-b-${randomUUID()}`;
    await settle(onB, 1060);
    expect(await buildOf(stack.client, workflowIds.payment(onB))).toBe(buildB);
    expect(await memoOf(stack.client, workflowIds.payment(onB))).toMatchObject({ [buildBMemoKey]: 'B' });

    const assertion = customer.authenticator.getAssertion(createdOnA.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(stack, { externalId: onA, assertion });
    expect(await waitForPaymentResult(stack, { externalId: onA })).toMatchObject({ outcome: 'settled' });
    expect(await buildOf(stack.client, workflowIds.payment(onA))).toBe(buildA);
    expect(await memoOf(stack.client, workflowIds.payment(onA))).not.toHaveProperty(buildBMemoKey);

    // The enrollment continues as new once its minute is up, and its new run starts on B.
    const runs = await eventually(
      () => runsOf(stack.client, enrollmentId),
      (all) => all.length >= 2,
      Math.max(60_000 - (Date.now() - enrollmentStartedAt), 0) + 60_000,
    );
    // Its first task completes a moment after the run is created.
    expect(
      await eventually(
        () => buildOf(stack.client, enrollmentId, runs[1]?.runId),
        (build) => build !== undefined,
      ),
    ).toBe(buildB);

    // Nothing is pinned to A any more: its worker can stop, and B serves alone.
    expect(
      await eventually(
        () => versionDrainage(target, buildA),
        (drainage) => drainage.drained,
      ),
    ).toMatchObject({ drained: true, openPinned: 0 });
    await stack.stopWorker();
    const afterA = `versioning-after-a-${randomUUID()}`;
    await settle(afterA, 1070);
    expect(await buildOf(stack.client, workflowIds.payment(afterA))).toBe(buildB);

    for (const workflowId of [enrollmentId, ...[onA, onB, afterA].map(workflowIds.payment)]) {
      expect({ workflowId, ...(await workflowTaskFailures(stack.client, workflowId)) }).toEqual({
        workflowId,
        failures: 0,
        nondeterminism: 0,
      });
    }
  }, 300_000);
});

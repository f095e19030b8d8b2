import { randomUUID } from 'node:crypto';
import proto from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { webhookCategories } from '../../src/bank/schemas/webhook.js';
import { workflowIds } from '../../src/contract/ids.js';
import { workerTaskQueues } from '../../src/contract/temporal.js';
import { memoKeys } from '../../src/contract/journeys.js';
import { authorizePayment, getPayment, waitForPaymentResult } from '../../src/starter/index.js';
import { startTunedPayment } from '../../src/starter/payments.js';
import {
  listVersions,
  promoteVersion,
  versionDrainage,
  type DeploymentTarget,
} from '../../src/temporal/deployments.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { workflowSpanSinks } from '../../src/tracing/temporal.js';
import { deliverWebhook } from '../../src/webhooks/deliver.js';
import { receivedWebhook } from '../../src/webhooks/resources.js';
import { bankflowRouter } from '../../src/webhooks/routes.js';
import { createBankflowWorker, type BankflowWorker } from '../../src/worker.js';
import { testEnvKeys } from '../setup/shared.js';
import {
  control,
  enroll,
  eventually,
  newCustomer,
  payAndSettle,
  world,
  type Customer,
} from '../helpers/journey.js';
import { recordHistory } from '../helpers/replay.js';
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
 * A rolling deploy on the dev server, the smallest that shows how every run is pinned: build A (the run's
 * workflow bundle, the stack's worker) and build B (the same workflows, whose payment makes one more
 * decision) serve one task queue in one Worker Deployment. A payment A started stays on A after B is
 * promoted, while a new one runs on B; an authorized enrollment and a claimed cash-in holder A started stay
 * pinned to A until their next workflow task (a webhook each), where they continue as new, and their next
 * runs start on B. A then drains and its worker stops.
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

  /** A workflow's first two runs, once the second ran its first task, and the build each ran on. */
  async function firstTwoRuns(workflowId: string) {
    const runs = await eventually(
      () => runsOf(stack.client, workflowId),
      (all) => all.length >= 2,
    );
    // The second run's first task completes a moment after the run is created; until then it names no build
    // (its versioning info holds the first run's version, the source of its upgrade).
    const second = await eventually(
      () => buildOf(stack.client, workflowId, runs[1]?.runId),
      (build) => build !== undefined,
    );
    return { runs, builds: [await buildOf(stack.client, workflowId, runs[0]?.runId), second] };
  }

  it('pins payments to the build that started them and moves the enrollment and a cash-in holder to the promoted build by continue-as-new', async () => {
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

    // On A: an enrollment (its lifetime the default 30 days), a settled payment, whose cash-in holder stays a
    // day for the bank's repeated deliveries, and a payment left waiting for the customer's consent.
    const customer: Customer = await newCustomer(stack);
    const { started, result } = await enroll(stack, customer);
    if (result.outcome !== 'authorized') throw new Error(`the enrollment ended ${result.outcome}`);
    const enrollmentId = workflowIds.enrollment(customer.deviceId, customer.participantId);
    const settle = (externalId: string, amountCents: number) =>
      payAndSettle(stack, customer, {
        externalId,
        enrollmentId: started.enrollmentId,
        amountCents,
        description: `Pedido ${externalId}`,
      });
    const settledOnA = `versioning-settled-a-${randomUUID()}`;
    await settle(settledOnA, 1040);
    const { endToEndId } = await getPayment(stack, { externalId: settledOnA });
    const holderId = workflowIds.cashIn(endToEndId ?? '');
    expect(await buildOf(stack.client, holderId)).toBe(buildA);
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
    // The waiting payment, the enrollment and the cash-in holder, all pinned to A.
    expect(await versionDrainage(target, buildA)).toMatchObject({
      drained: false,
      state: 'draining',
      openPinned: 3,
    });

    // A new payment runs on B and takes B's decision; A's payment finishes on A without it.
    const onB = `versioning-b-${randomUUID()}`;
    await settle(onB, 1060);
    expect(await buildOf(stack.client, workflowIds.payment(onB))).toBe(buildB);
    expect(await memoOf(stack.client, workflowIds.payment(onB))).toMatchObject({ [buildBMemoKey]: 'B' });

    const assertion = customer.authenticator.getAssertion(createdOnA.publicKeyEncoded, stack.sandbox.url);
    await authorizePayment(stack, { externalId: onA, assertion });
    expect(await waitForPaymentResult(stack, { externalId: onA })).toMatchObject({ outcome: 'settled' });
    expect(await buildOf(stack.client, workflowIds.payment(onA))).toBe(buildA);
    expect(await memoOf(stack.client, workflowIds.payment(onA))).not.toHaveProperty(buildBMemoKey);

    // The enrollment sleeps until its daily check, still on A: the new current version does not wake it.
    expect((await runsOf(stack.client, enrollmentId)).length).toBe(1);
    expect(await buildOf(stack.client, enrollmentId)).toBe(buildA);
    // The bank's webhook about it is its next workflow task, which finds B current: the run continues as new
    // with AUTO_UPGRADE, and its next run starts on B, pinned there.
    await control(stack, 'POST', '/sandbox/webhooks/events', {
      category: webhookCategories.enrollment,
      type: result.enrollment?.status ?? 'authorized',
      ref_id: started.enrollmentId,
      data: { ...result.enrollment },
    });
    const { runs, builds } = await firstTwoRuns(enrollmentId);
    expect(runs[0]?.continuedAsNew).toBe(true);
    expect(builds).toEqual([buildA, buildB]);
    const described = await stack.client.workflowService.describeWorkflowExecution({
      namespace: target.namespace,
      execution: { workflowId: enrollmentId, runId: runs[1]?.runId },
    });
    expect(described.workflowExecutionInfo?.versioningInfo?.behavior).toBe(
      proto.temporal.api.enums.v1.VersioningBehavior.VERSIONING_BEHAVIOR_PINNED,
    );
    // The run that saw the new version replays on A's code: what Temporal told it is in its history.
    const firstRun = await stack.client.workflow.getHandle(enrollmentId, runs[0]?.runId).fetchHistory();
    await Worker.runReplayHistory(
      {
        workflowBundle: { codePath: required(testEnvKeys.bundle) },
        dataConverter: bankflowDataConverter(encryptionKeys),
        sinks: workflowSpanSinks(undefined),
      },
      firstRun,
      enrollmentId,
    );
    await recordHistory(stack.client, enrollmentId, 'enrollment-moved-to-new-version', runs[0]?.runId);
    expect(await memoOf(stack.client, enrollmentId)).toMatchObject({
      [memoKeys.state]: { phase: 'authorized' },
    });

    // The bank delivers the cash-in again, as a copy of its own: the holder's next workflow task. It
    // continues as new onto B, carrying its events, its claim and its end, a day after the claim.
    const copy = {
      category: webhookCategories.collectingDocument,
      type: 'settled',
      ref_id: randomUUID(),
      timestamp: new Date().toISOString(),
      data: { id: randomUUID(), end_to_end_id: endToEndId, status: 'settled', transaction_date: null },
    };
    await deliverWebhook(stack.client, stack.taskQueue, receivedWebhook(copy), bankflowRouter(copy));
    const { runs: holderRuns, builds: holderBuilds } = await firstTwoRuns(holderId);
    expect(holderBuilds).toEqual([buildA, buildB]);
    const holder = await stack.client.workflow.getHandle(holderId).describe();
    expect(holder.searchAttributes).toMatchObject({ BankflowKind: ['cash-in'], BankflowStatus: ['claimed'] });
    expect(holder.status.name).toBe('RUNNING');
    await recordHistory(stack.client, holderId, 'cash-in-holder-moved-to-new-version', holderRuns[0]?.runId);

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

    for (const workflowId of [
      enrollmentId,
      holderId,
      ...[settledOnA, onA, onB, afterA].map(workflowIds.payment),
    ]) {
      expect({ workflowId, ...(await workflowTaskFailures(stack.client, workflowId)) }).toEqual({
        workflowId,
        failures: 0,
        nondeterminism: 0,
      });
    }
  }, 300_000);
});

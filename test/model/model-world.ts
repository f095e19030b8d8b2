import { Context } from '@temporalio/activity';
import { Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { bankActivity } from '../../src/activities/failures.js';
import type { Activities } from '../../src/activities/index.js';
import { workerTaskQueues } from '../../src/contract/temporal.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { encryptionKeys, required } from '../helpers/stack.js';
import { startTimeSkippingStack, type TimeSkippingStack } from '../helpers/time-skipping.js';
import { testEnvKeys } from '../setup/shared.js';
import { EnrollmentBank } from './enrollment-bank.js';
import { PaymentBank } from './payment-bank.js';

type ModelActivities = Pick<
  Activities,
  | 'listEnrollments'
  | 'createBiometricPayment'
  | 'getBiometricPayment'
  | 'getPaymentAuthorizationOptions'
  | 'authorizeBiometricPayment'
  | 'claimCashIns'
  | 'createEnrollment'
  | 'getRegistrationOptions'
  | 'registerCredential'
  | 'handOffNotification'
>;

/**
 * A time-skipping Temporal server with a worker whose activities are model banks instead of the sandbox: each
 * workflow id has its own bank, which the test drives and reads. The stack's sandbox and worker are not used.
 */
export interface ModelWorld {
  stack: TimeSkippingStack;
  taskQueue: string;
  paymentBank(workflowId: string, bank: PaymentBank): PaymentBank;
  enrollmentBank(workflowId: string, bank: EnrollmentBank): EnrollmentBank;
  stop(): Promise<void>;
}

export async function startModelWorld(): Promise<ModelWorld> {
  const stack = await startTimeSkippingStack();
  const payments = new Map<string, PaymentBank>();
  const enrollments = new Map<string, EnrollmentBank>();
  const workflowId = () => Context.current().info.workflowExecution?.workflowId ?? '';
  const paymentOf = () => {
    const bank = payments.get(workflowId());
    if (!bank) throw new Error(`no model payment bank for ${workflowId()}`);
    return bank.activities;
  };
  const enrollmentOf = () => {
    const bank = enrollments.get(workflowId());
    if (!bank) throw new Error(`no model enrollment bank for ${workflowId()}`);
    return bank.activities;
  };
  const activities: ModelActivities = {
    // A payment's workflow checks its enrollment first, at its payment's bank: the model's is always
    // authorized.
    listEnrollments: bankActivity(async (query: { device_id: string }) =>
      enrollments.has(workflowId())
        ? enrollmentOf().listEnrollments()
        : paymentOf().listEnrollments(query.device_id),
    ),
    createBiometricPayment: bankActivity(async (_enrollmentId, request) =>
      paymentOf().createBiometricPayment(request),
    ),
    getBiometricPayment: bankActivity(async () => paymentOf().getBiometricPayment()),
    getPaymentAuthorizationOptions: bankActivity(async () => paymentOf().getPaymentAuthorizationOptions()),
    authorizeBiometricPayment: bankActivity(async (_enrollmentId, _paymentId, request) =>
      paymentOf().authorizeBiometricPayment(request),
    ),
    // The model signals its cash-in events to the payment itself: a claim finds none held or kept.
    claimCashIns: async () => [],
    createEnrollment: bankActivity(async (request) => enrollmentOf().createEnrollment(request)),
    getRegistrationOptions: bankActivity(async () => enrollmentOf().getRegistrationOptions()),
    registerCredential: bankActivity(async (_enrollmentId, request) =>
      enrollmentOf().registerCredential(request),
    ),
    // As on a worker with no NOTIFY_ENDPOINTS: the journeys hand their events over, and nothing is sent.
    handOffNotification: async () => undefined,
  };
  const taskQueue = `model-${randomUUID()}`;
  // The workflow queue's worker and the workload queues' (src/contract/temporal.ts), each with the model
  // banks.
  const workers = await Promise.all(
    workerTaskQueues(taskQueue).map((queue) =>
      Worker.create({
        connection: stack.env.nativeConnection,
        namespace: stack.env.namespace ?? 'default',
        taskQueue: queue,
        activities,
        dataConverter: bankflowDataConverter(encryptionKeys),
        ...(queue === taskQueue ? { workflowBundle: { codePath: required(testEnvKeys.bundle) } } : {}),
        // Versioned as every bankflow worker: the workflow types declare a versioning behavior.
        workerDeploymentOptions: {
          version: { deploymentName: taskQueue, buildId: required(testEnvKeys.buildId) },
          useWorkerVersioning: true,
          defaultVersioningBehavior: 'PINNED',
        },
      }),
    ),
  );
  const running = Promise.all(workers.map((worker) => worker.run()));
  return {
    stack,
    taskQueue,
    paymentBank: (id, bank) => (payments.set(id, bank), bank),
    enrollmentBank: (id, bank) => (enrollments.set(id, bank), bank),
    async stop() {
      for (const worker of workers) worker.shutdown();
      await running;
      await stack.stop();
    },
  };
}

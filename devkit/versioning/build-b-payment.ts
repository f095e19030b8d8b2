import { upsertMemo, workflowInfo, type WorkflowInterceptorsFactory } from '@temporalio/workflow';

/** The memo key build B's payments write, and only theirs. */
export const buildBMemoKey = 'upgradeTestBuild';

/**
 * Bundled beside bankflow's workflows only in build B of the rolling deploys (worker-versioning.test.ts and
 * `npm run cluster:test`): its payment makes one more decision (a memo upsert, a command) before bankflow's
 * own first one. Replaying a payment that build A started through build B fails with a nondeterminism error,
 * so they show that A's payments never reach B's workers. Other workflow types decide as in A, so a
 * long-lived run that continues as new onto B goes on there alike.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      execute(input, next) {
        if (workflowInfo().workflowType === 'biometricPaymentWorkflow') upsertMemo({ [buildBMemoKey]: 'B' });
        return next(input);
      },
    },
  ],
});

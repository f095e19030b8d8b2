import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { resolveBank } from '../../src/bank/base-url.js';
import { cliContext } from '../../src/cli/context.js';
import { stopOnSignals } from '../../src/stack/shutdown.js';
import { startWorker } from '../../src/stack/worker-process.js';
import { workflowInterceptorModules, workflowsPath } from '../../src/workflow-bundle.js';

const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The new build a chaos run deploys mid-run: `bankflow worker` as the CLI runs it, on bankflow's workflows plus the
 * versioning test's build-B interceptor, so its payment makes one more decision (a memo upsert). Its bundle, so its
 * build id, differs from the running workers', and a payment the old build started would fail replaying here
 * with a nondeterminism error: the audit sees any pinned run that reached the wrong build.
 */
const { config, logger } = await cliContext();
const bundle = await bundleWorkflowCode({
  workflowsPath,
  workflowInterceptorModules: [
    ...workflowInterceptorModules(false),
    path.join(repositoryRoot, 'test/helpers/build-b-payment.ts'),
  ],
});
const worker = await startWorker(config.temporal, resolveBank(config), logger, config.jobs, undefined, {
  code: bundle.code,
});
stopOnSignals(logger, () => worker.stop());
logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker running');
await worker.done;

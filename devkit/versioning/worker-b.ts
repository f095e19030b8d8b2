import { resolveBank } from '../../src/bank/base-url.js';
import { cliContext } from '../../src/cli/context.js';
import { stopOnSignals } from '../../src/stack/shutdown.js';
import { startWorker } from '../../src/stack/worker-process.js';
import { bundleBuildB } from './build-b.js';

/**
 * The new build of a rolling deploy, in the cluster test and mid-run in a chaos run: `bankflow worker` as the
 * CLI runs it, on bankflow's workflows plus the versioning test's build-B interceptor, so its payment makes
 * one more decision (a memo upsert). Its bundle, so its build id, differs from the running workers', and a
 * payment the old build started would fail replaying here with a nondeterminism error: the audit sees any
 * pinned run that reached the wrong build.
 */
const { config, logger } = await cliContext();
const bundle = await bundleBuildB();
const worker = await startWorker(config.temporal, resolveBank(config), logger, config, undefined, {
  code: bundle.code,
});
stopOnSignals(logger, () => worker.stop());
// The cluster test learns the build it deploys from this line.
process.stdout.write(`${JSON.stringify({ buildId: bundle.buildId })}\n`);
logger.info({ taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace }, 'worker running');
await worker.done;

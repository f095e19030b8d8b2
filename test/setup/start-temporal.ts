import { mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadConfig } from '../../src/config.js';
import { createLogger, temporalLoggerFor } from '../../src/logger.js';
import { findTemporalCli } from '../../src/temporal/cli-binary.js';
import { installTemporalRuntime } from '../../src/temporal/runtime.js';
import { bundleWorkflows, prebuiltWorkflowBundlePath } from '../../src/workflow-bundle.js';
import { workflowBuildId } from '../../src/temporal/worker-deployment.js';
import { allSearchAttributeKeys } from '../../src/contract/temporal.js';
import { freePort } from '../helpers/cli.js';
import { testEnvKeys } from './shared.js';
import { startUiCodec } from './ui-codec.js';
import { findTimeSkippingServer } from './time-skipping-server.js';

/**
 * The same bundles as the prebuilt ones of the tests' build (scripts/test-build.mjs), where its `bankflow
 * worker` processes load them as a built worker does: they run the code and build id of the in-test workers
 * beside them, without bundling again at every start. Renamed into place, so a run side by side never loads
 * half a file.
 */
function prebuildWorkflowBundles(buildDir: string, plainCode: string, tracedCode: string): void {
  const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
  for (const [traced, code] of [
    [false, plainCode],
    [true, tracedCode],
  ] as const) {
    const target = path.join(buildDir, path.relative(repositoryRoot, prebuiltWorkflowBundlePath(traced)));
    const partial = `${target}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, target);
  }
}

/**
 * One real Temporal dev server for the whole run, with bankflow's search attributes, and one workflow bundle
 * every test worker reuses. Test files reach both through environment variables, which jest workers inherit.
 */
export async function startTemporal(): Promise<void> {
  // The tests run in development (sandbox bank, development keys); test files and their jest workers inherit
  // it.
  process.env.BANKFLOW_ENV ??= 'development';
  const config = loadConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
  const logger = createLogger(config.logLevel);
  installTemporalRuntime(logger);
  const cliPath = await findTemporalCli({
    explicitPath: config.temporal.cliPath,
    pathEnv: config.temporal.searchPath,
  });
  // Provisioned here rather than by the first test needing it, so parallel test files never fetch it twice.
  const timeSkippingServer = await findTimeSkippingServer({
    explicitPath: process.env.TEMPORAL_TEST_SERVER,
  });

  // The Web UI too, decrypting through a codec server, so browser tests can check what support staff see.
  const uiPort = await freePort();
  const uiUrl = `http://127.0.0.1:${uiPort}`;
  const codec = await startUiCodec(uiUrl, logger);
  (globalThis as { __bankflowUiCodec?: typeof codec }).__bankflowUiCodec = codec;
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: cliPath },
      ip: '127.0.0.1',
      ui: true,
      uiPort,
      searchAttributes: allSearchAttributeKeys,
      extraArgs: [
        ...['--log-level', 'error', '--ui-codec-endpoint', codec.uiEndpoint],
        // A Worker Deployment per task queue (TEMPORAL_DEPLOYMENT_NAME's default), and the run has hundreds
        // of task queues; the server's default allows 100 deployments per namespace.
        ...['--dynamic-config-value', 'matching.maxDeployments=100000'],
        // A closed workflow deleted (start-terms.test.ts, as past retention) is gone at once, instead of once
        // the transfer queue's ack level passes its close task, which took 5 to 35 s a deletion on this
        // machine.
        ...['--dynamic-config-value', 'history.transferProcessorEnsureCloseBeforeDelete=false'],
      ],
    },
  });
  (globalThis as { __bankflowTemporal?: TestWorkflowEnvironment }).__bankflowTemporal = env;

  const dir = mkdtempSync(path.join(tmpdir(), 'bankflow-test-'));
  (globalThis as { __bankflowBundleDir?: string }).__bankflowBundleDir = dir;
  const bundlePath = path.join(dir, 'workflow-bundle.js');
  const plainCode = (await bundleWorkflows(false, temporalLoggerFor(logger))).code;
  writeFileSync(bundlePath, plainCode);
  const tracedBundlePath = path.join(dir, 'workflow-bundle-traced.js');
  const tracedCode = (await bundleWorkflows(true, temporalLoggerFor(logger))).code;
  writeFileSync(tracedBundlePath, tracedCode);
  const buildDir = process.env.BANKFLOW_TEST_BUILD_DIR;
  if (buildDir) prebuildWorkflowBundles(buildDir, plainCode, tracedCode);

  process.env[testEnvKeys.address] = env.address;
  process.env[testEnvKeys.namespace] = env.namespace ?? 'default';
  process.env[testEnvKeys.bundle] = bundlePath;
  process.env[testEnvKeys.tracedBundle] = tracedBundlePath;
  process.env[testEnvKeys.buildId] = workflowBuildId(plainCode);
  process.env[testEnvKeys.uiUrl] = uiUrl;
  process.env[testEnvKeys.timeSkippingServer] = timeSkippingServer;
}

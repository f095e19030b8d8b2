import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BankClient } from '../../src/bank/client.js';
import { resolveBank } from '../../src/bank/base-url.js';
import { loadDevelopmentConfig } from '../../devkit/config.js';
import { createLogger } from '../../src/logger.js';
import { clusterPorts } from '../../devkit/stack/cluster/cluster-stack.js';
import { namedServerPorts, portFree, serverPorts } from '../../devkit/stack/cluster/ports.js';
import { connectClient } from '../../src/temporal/connection.js';
import { freePort } from '../chaos/ports.js';
import { interruptCluster, startCluster } from './cluster-process.js';
import { operatorCommands, scaleWorkers, secondClusterRefused } from './operator.js';
import { descendants } from './processes.js';
import { rollingDeploy } from './rolling-deploy.js';
import {
  demoJourney,
  merchantApi,
  schedulesFire,
  serverRestarted,
  workerKilledMidPayment,
  type Outcome,
} from './scenarios.js';

/**
 * A frontend port whose whole layout (it minus 300 to it plus 10) is free; membership ports stay below 32768.
 */
async function freeServerPort(): Promise<number> {
  for (;;) {
    const frontend = 20_000 + Math.floor(Math.random() * 13_000);
    const ports = namedServerPorts(serverPorts(frontend));
    if ((await Promise.all(ports.map((entry) => portFree(entry.port)))).every(Boolean)) return frontend;
  }
}

const log = (line: string) => console.error(line);
const dataDir = mkdtempSync(path.join(tmpdir(), 'bankflow-cluster-test-'));
// PostgreSQL runs as its own user when this runs as root: it must reach its data directory.
chmodSync(dataDir, 0o755);
const frontend = await freeServerPort();
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  LOG_LEVEL: 'warn',
  // The cluster runs the sandbox bank, so it runs in development; the test drives the sandbox with this
  // token.
  BANKFLOW_ENV: 'development',
  SANDBOX_CONTROL_TOKEN: randomBytes(24).toString('hex'),
  BANKFLOW_DATA_DIR: dataDir,
  TEMPORAL_DEV_PORT: String(frontend),
  TEMPORAL_UI_PORT: String(await freePort()),
  CLUSTER_POSTGRES_PORT: String(await freePort()),
  SANDBOX_PORT: String(await freePort()),
  WEBHOOK_PORT: String(await freePort()),
  CODEC_PORT: String(await freePort()),
  CHECKOUT_PORT: String(await freePort()),
  API_PORT: String(await freePort()),
};
const config = loadDevelopmentConfig('cluster', env);
const address = `127.0.0.1:${frontend}`;

const rows: { step: string; seconds: number; outcome: Outcome }[] = [];
async function timed(step: string, run: () => Promise<Outcome>): Promise<void> {
  log(`\n== ${step}`);
  const started = performance.now();
  let outcome: Outcome;
  try {
    outcome = await run();
  } catch (error) {
    outcome = { ok: false, detail: (error as Error).message.split('\n')[0] ?? '' };
  }
  rows.push({ step, seconds: (performance.now() - started) / 1000, outcome });
  log(`   ${outcome.ok ? 'ok' : 'FAILED'}: ${outcome.detail}`);
}

let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
await timed('start (PostgreSQL, schema, server, UI, namespace, 2 workers)', async () => {
  cluster = await startCluster(env, path.join(dataDir, 'cluster.log'));
  log(cluster.banner);
  return { ok: cluster.pids.workers.length === 2, detail: `${cluster.pids.workers.length} workers up` };
});

if (cluster) {
  const running = cluster;
  const client = await connectClient({ ...config.temporal, address });
  const sandboxUrl = `http://${config.sandbox.host}:${config.sandbox.port}`;
  const bank = { bank: new BankClient(resolveBank(config, sandboxUrl), createLogger('silent')) };
  const ctx = {
    client,
    taskQueue: config.temporal.taskQueue,
    customerKeySecret: config.support.lookupSecret,
    bank,
    sandboxUrl,
    sandboxToken: env.SANDBOX_CONTROL_TOKEN ?? '',
    address,
    cluster: running,
    log,
  };
  const scheduleIds = /Schedules\s+(.+)/.exec(running.banner)?.[1]?.split(', ') ?? [];

  await timed('demo journey settles', () => demoJourney(ctx));
  await timed('merchant API answers with its key, and only with it', () => merchantApi(ctx));
  await timed('worker SIGKILLed mid-payment, the other finishes it', () => workerKilledMidPayment(ctx));
  await timed('server SIGKILLed and restarted mid-payment, no workflow lost', () => serverRestarted(ctx));
  await timed('schedules triggered, their runs complete', () => schedulesFire(ctx, scheduleIds));
  await timed('operator: namespace create, setup, schedules apply', () => operatorCommands(env, address));
  const workerEnv = { ...env, TEMPORAL_ADDRESS: address, BANK_BASE_URL: sandboxUrl };
  await timed('a third `bankflow worker` joins the task queue', () =>
    scaleWorkers(workerEnv, client.connection, config.temporal.namespace, config.temporal.taskQueue),
  );
  await timed('a second cluster on the same ports is refused', () => secondClusterRefused(env));
  // Last before Ctrl-C: it stops the cluster's workers, leaving build B's, which it stops too.
  await timed('rolling deploy A to B: A drains, then its workers stop', () =>
    rollingDeploy({ ...ctx, env: workerEnv, deploymentName: config.temporal.deployment.name }),
  );
  await client.connection.close();

  await timed('Ctrl-C stops everything', async () => {
    const pids = descendants(running.child.pid ?? 0);
    const ports = clusterPorts(config).map((entry) => entry.port);
    const left = await interruptCluster(running, pids, ports);
    return {
      ok: left.exitCode === 0 && left.alive.length === 0 && left.bound.length === 0,
      detail:
        `exit ${left.exitCode} in ${left.seconds.toFixed(1)} s; ${pids.length} processes before, ` +
        `${left.alive.length} left; ${ports.length} ports, ${left.bound.length} still bound`,
    };
  });
}

const width = Math.max(...rows.map((row) => row.step.length));
console.log(`\n| ${'step'.padEnd(width)} | result | time     | detail`);
console.log(`| ${'-'.repeat(width)} | ------ | -------- | ------`);
for (const row of rows) {
  console.log(
    `| ${row.step.padEnd(width)} | ${(row.outcome.ok ? 'ok' : 'FAILED').padEnd(6)} | ${`${row.seconds.toFixed(1)} s`.padStart(8)} | ${row.outcome.detail}`,
  );
}
const failed = rows.some((row) => !row.outcome.ok);
if (failed) {
  cluster?.child.kill('SIGINT');
  console.error(`\nThe run's data and logs are kept in ${dataDir}`);
} else {
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

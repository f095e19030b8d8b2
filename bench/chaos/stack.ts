import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { pino, type Logger } from 'pino';
import { BankClient } from '../../src/bank/client.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { startSandbox, type RunningSandbox } from '../../devkit/sandbox/app.js';
import { findTemporalCli } from '../../src/temporal/cli-binary.js';
import { connectClient } from '../../src/temporal/connection.js';
import { bankTimeoutMs, chaosFaults } from './profile.js';
import { ChaosMerchantEndpoint, chaosNotifySecret, chaosNotifySpeedup } from './merchant-endpoint.js';
import { freePort } from './ports.js';
import { ChaosReceiver } from './receiver.js';
import { ChaosTemporalServer } from './temporal-server.js';
import { WorkerPool } from './workers.js';

const credentials = { clientId: 'chaos-client', clientSecret: 'chaos-secret' };
const webhookSecret = 'chaos-webhook-secret';
const taskQueue = 'bankflow-chaos';

/**
 * Everything a run needs, on loopback only: its own Temporal dev server on a SQLite file in a temporary
 * directory, the sandbox bank in this process with the chaos faults, and `bankflow webhooks` and
 * `bankflow worker` child processes. The merchant's Temporal client and bank client live here too.
 */
export interface ChaosStack {
  dir: string;
  logger: Logger;
  temporal: ChaosTemporalServer;
  sandbox: RunningSandbox;
  receiver: ChaosReceiver;
  /** The merchant's notification endpoint every worker sends to. */
  merchantEndpoint: ChaosMerchantEndpoint;
  workers: WorkerPool;
  config: Config;
  client: Client;
  bank: BankClient;
  stop(): Promise<void>;
}

export async function startChaosStack(seed: number, workerCount: number): Promise<ChaosStack> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bankflow-chaos-'));
  mkdirSync(path.join(dir, 'temporal'));
  const logger = createLogger('warn', pino.destination({ dest: path.join(dir, 'harness.log'), sync: true }));
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne().catch(() => undefined);
  };
  try {
    const cliPath = await findTemporalCli({ pathEnv: process.env.PATH });
    const temporal = await ChaosTemporalServer.start(cliPath, path.join(dir, 'temporal'), logger);
    stops.push(() => temporal.stop());

    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      BANKFLOW_ENV: 'development',
      LOG_LEVEL: 'info',
      BANKFLOW_DATA_DIR: path.join(dir, 'data'),
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_TASK_QUEUE: taskQueue,
      BANK_CLIENT_ID: credentials.clientId,
      BANK_CLIENT_SECRET: credentials.clientSecret,
      BANK_TIMEOUT_MS: String(bankTimeoutMs),
      WEBHOOK_HOST: '127.0.0.1',
      WEBHOOK_PORT: String(await freePort()),
      WEBHOOK_SECRET: webhookSecret,
      // The first worker makes its version current; the mid-run deploy promotes the new build, and an
      // old-build worker restarted after a kill must not take the deployment back (development's `always`
      // would).
      WORKER_VERSION_PROMOTION: 'if-no-current',
      // The workers' cache size is what decides how often a workflow is replayed from the start; let a run
      // vary it.
      ...(process.env.TEMPORAL_MAX_CACHED_WORKFLOWS
        ? { TEMPORAL_MAX_CACHED_WORKFLOWS: process.env.TEMPORAL_MAX_CACHED_WORKFLOWS }
        : {}),
    };
    const config = loadConfig(env);
    const receiver = new ChaosReceiver(env, dir);
    stops.push(() => receiver.close());
    await receiver.start();

    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      seed,
      credentials,
      logger,
      webhookUrl: receiver.webhooksUrl,
      webhookSecret,
    });
    stops.push(() => sandbox.stop());
    sandbox.faults.configure(chaosFaults(seed));

    const merchantEndpoint = await ChaosMerchantEndpoint.start(await freePort(), seed);
    stops.push(() => merchantEndpoint.stop());

    const workers = new WorkerPool(
      workerCount,
      {
        ...env,
        BANK_BASE_URL: sandbox.url,
        NOTIFY_ENDPOINTS: merchantEndpoint.url,
        NOTIFY_SECRET: chaosNotifySecret,
        NOTIFY_TEST_SPEEDUP: String(chaosNotifySpeedup),
      },
      dir,
    );
    stops.push(() => workers.stopAll());
    await workers.startAll();

    const client = await connectClient(config.temporal);
    stops.push(() => client.connection.close());
    const bank = new BankClient({ ...config.bank, baseUrl: sandbox.url }, logger);
    return {
      dir,
      logger,
      temporal,
      sandbox,
      receiver,
      merchantEndpoint,
      workers,
      config,
      client,
      bank,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

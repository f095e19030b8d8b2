import path from 'node:path';
import type { Logger } from 'pino';
import { Connection } from '@temporalio/client';
import { ConfigError } from '../../../src/config.js';
import type { DevConfig } from '../../config.js';
import { applySchedulesAtStart } from '../schedules-at-start.js';
import { ensureNamespace } from '../../temporal/namespace-registration.js';
import {
  assertNoConflicts,
  registerSearchAttributes,
} from '../../../src/temporal/search-attribute-registration.js';
import { provideServerBinaries } from '../../temporal/server-binaries.js';
import { objectStorePortsFrom, startObjectStore } from '../../object-store/seaweedfs.js';
import { findWeed } from '../../object-store/weed-binary.js';
import { startCodecServer } from '../../../src/stack/codec-process.js';
import { buildStack, startBankSide, startMerchantApi, type RunningStack } from '../stack-parts.js';
import { assertPortsFree, namedServerPorts, serverPorts, type NamedPort } from './ports.js';
import { findPostgres } from './postgres-install.js';
import { startPostgres } from './postgres.js';
import { applySchema } from './schema.js';
import { startTemporalServer, startUiServer } from './temporal-server.js';
import { startWorkerProcesses } from './worker-processes.js';

/** How long a namespace `bankflow cluster` registers keeps closed workflows. */
const retentionDays = 7;

/** Every port the cluster binds, checked before anything starts. */
export function clusterPorts(config: DevConfig): NamedPort[] {
  if (config.cluster.postgresPort === 0) {
    throw new ConfigError([
      { variable: 'CLUSTER_POSTGRES_PORT', reason: 'must be a fixed port, e.g. 55432' },
    ]);
  }
  const named = (port: number, what: string, variable: string) => ({ port, what, variable });
  return [
    named(config.cluster.postgresPort, 'PostgreSQL', 'CLUSTER_POSTGRES_PORT'),
    ...namedServerPorts(serverPorts(config.devServerPort)),
    ...(config.cluster.objectStorePort === undefined
      ? []
      : Object.entries(objectStorePortsFrom(config.cluster.objectStorePort)).map(([what, port]) =>
          named(port, `SeaweedFS ${what}`, 'CLUSTER_OBJECT_STORE_PORT'),
        )),
    named(config.temporal.uiPort, 'Temporal Web UI', 'TEMPORAL_UI_PORT'),
    named(config.codec.port, 'codec server', 'CODEC_PORT'),
    named(config.webhooks.port, 'webhook receiver', 'WEBHOOK_PORT'),
    ...(config.api.keys.length > 0 ? [named(config.api.port, 'merchant API', 'API_PORT')] : []),
    ...(config.bank.baseUrl
      ? []
      : [
          named(config.sandbox.port, 'sandbox bank', 'SANDBOX_PORT'),
          named(config.checkout.port, 'checkout page', 'CHECKOUT_PORT'),
        ]),
  ].filter((entry) => entry.port !== 0);
}

/**
 * `bankflow cluster`: a production-shaped Temporal on this host. A private PostgreSQL, the server's schema
 * (default store and SQL visibility, applied idempotently), the Temporal server and its Web UI, the namespace
 * with bankflow's search attributes, the codec server, the webhook receiver and the sandbox bank (unless
 * BANK_BASE_URL), with CLUSTER_OBJECT_STORE_PORT a SeaweedFS object store holding the workers' reports,
 * CLUSTER_WORKERS worker processes, the merchant API (when keys open it) and the schedules; stopped in
 * reverse order.
 */
export async function startClusterStack(config: DevConfig, logger: Logger): Promise<RunningStack> {
  const postgresBin = findPostgres({ explicitBin: config.cluster.postgresBin });
  const ports = serverPorts(config.devServerPort);
  await assertPortsFree(clusterPorts(config));
  const binaries = await provideServerBinaries({ pathEnv: config.temporal.searchPath });
  const weed =
    config.cluster.objectStorePort === undefined
      ? undefined
      : await findWeed({ pathEnv: config.temporal.searchPath });
  const clusterDir = path.resolve(config.dataDir, 'cluster');
  const { namespace } = config.temporal;

  return buildStack(logger, async (parts) => {
    const { urls } = parts;
    const postgres = await startPostgres({
      binDir: postgresBin,
      clusterDir,
      port: config.cluster.postgresPort,
      logger,
    });
    parts.add(() => postgres.process.stop());
    urls['PostgreSQL'] = `127.0.0.1:${config.cluster.postgresPort} (pid ${postgres.process.pid})`;
    await applySchema(binaries.sqlTool, postgres.access);

    const server = await startTemporalServer({
      binaries,
      clusterDir,
      ports,
      access: postgres.access,
      logger,
    });
    parts.add(() => server.stop());
    const address = `127.0.0.1:${ports.frontend}`;
    urls['Temporal gRPC'] = `${address} (pid ${server.pid})`;
    const temporal = { ...config.temporal, address };

    const connection = await Connection.connect({ address });
    parts.add(() => connection.close());
    urls['Namespace'] = `${namespace} (${await ensureNamespace(connection, namespace, retentionDays)})`;
    assertNoConflicts(await registerSearchAttributes(connection, namespace, address), namespace);

    const codec = await startCodecServer(config, logger);
    parts.add(() => codec.stop());
    urls['Codec server'] = codec.url;
    if (codec.generatedToken) urls['Codec token'] = codec.generatedToken;
    const ui = startUiServer({
      binaries,
      clusterDir,
      uiPort: config.temporal.uiPort,
      frontendPort: ports.frontend,
      namespace,
      codecUrl: codec.uiEndpoint,
      logger,
    });
    parts.add(() => ui.stop());
    urls['Temporal UI'] = `http://localhost:${config.temporal.uiPort}`;

    const objectStore =
      weed && config.cluster.objectStorePort !== undefined
        ? await startObjectStore({
            weed,
            dir: path.join(clusterDir, 'seaweedfs'),
            ports: objectStorePortsFrom(config.cluster.objectStorePort),
            bucket: 'bankflow-reports',
            logger,
          })
        : undefined;
    if (objectStore) {
      parts.add(() => objectStore.stop());
      urls['Reports'] =
        `${objectStore.store.endpoint} bucket ${objectStore.store.bucket} (pid ${objectStore.pid})`;
    }

    const bank = await startBankSide(parts, config, temporal, logger);
    const metrics = config.temporal.metrics;
    const workers = await startWorkerProcesses({
      count: config.cluster.workers,
      env: {
        BANKFLOW_ENV: config.env,
        TEMPORAL_ADDRESS: address,
        BANK_BASE_URL: bank.baseUrl,
        ...objectStore?.env,
      },
      metricsPorts: { sdk: metrics?.sdkPort, worker: metrics?.workerPort },
      logger,
      temporal: { connection, namespace, taskQueue: temporal.taskQueue },
    });
    parts.add(async () => {
      await Promise.all(workers.map((worker) => worker.stop()));
    });
    urls['Workers'] = workers.map((worker) => `${worker.spec.name} (pid ${worker.pid})`).join(', ');
    urls['Task queue'] = temporal.taskQueue;
    await startMerchantApi(parts, config, temporal, bank, logger);
    const schedules = await applySchedulesAtStart(temporal, config.schedules, logger);
    urls['Schedules'] = schedules.map((schedule) => schedule.scheduleId).join(', ');
    urls['Data'] = clusterDir;
  });
}

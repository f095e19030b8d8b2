import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';
import { waitUntilServing } from '../../temporal/dev-server.js';
import type { ServerBinaries } from '../../temporal/server-binaries.js';
import type { ServerPorts } from './ports.js';
import { dynamicConfig, serverConfig, uiConfig, type DatabaseAccess } from './server-config.js';
import { SupervisedProcess } from './supervised-process.js';

/** The configuration environment's name: `<root>/config/bankflow.yaml`. */
const environment = 'bankflow';

function writeConfig(root: string, config: object): void {
  mkdirSync(path.join(root, 'config'), { recursive: true });
  // JSON is YAML: the servers' loaders read it as it is.
  writeFileSync(path.join(root, 'config', `${environment}.yaml`), JSON.stringify(config, null, 2), {
    mode: 0o600,
  });
}

/** The Temporal server, all four services in one process, restarted if it exits by itself. */
export async function startTemporalServer(options: {
  binaries: ServerBinaries;
  clusterDir: string;
  ports: ServerPorts;
  access: DatabaseAccess;
  logger: Logger;
}): Promise<SupervisedProcess> {
  const root = path.join(options.clusterDir, 'temporal');
  const dynamicConfigPath = path.join(root, 'config', 'dynamic.yaml');
  writeConfig(root, serverConfig(options.ports, options.access, dynamicConfigPath));
  writeFileSync(dynamicConfigPath, JSON.stringify(dynamicConfig(), null, 2));
  const server = new SupervisedProcess(
    {
      name: 'temporal-server',
      command: options.binaries.server,
      args: ['--root', root, '--config', 'config', '--env', environment, '--allow-no-auth', 'start'],
      restart: true,
      graceMs: 20_000,
    },
    options.logger,
  );
  server.start();
  await waitUntilTemporalServes(server, options.ports.frontend);
  return server;
}

export async function waitUntilTemporalServes(
  server: SupervisedProcess,
  frontendPort: number,
): Promise<void> {
  try {
    await waitUntilServing(
      `127.0.0.1:${frontendPort}`,
      () => (server.running ? undefined : server.recentOutput.trim().slice(-1_000)),
      120_000,
      'the Temporal server',
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** The Temporal Web UI server (the one `temporal server start-dev` embeds), on TEMPORAL_UI_PORT. */
export function startUiServer(options: {
  binaries: ServerBinaries;
  clusterDir: string;
  uiPort: number;
  frontendPort: number;
  namespace: string;
  codecUrl: string;
  logger: Logger;
}): SupervisedProcess {
  const root = path.join(options.clusterDir, 'ui');
  writeConfig(root, uiConfig(options));
  const ui = new SupervisedProcess(
    {
      name: 'temporal-ui',
      command: options.binaries.uiServer,
      args: ['--root', root, '--config', 'config', '--env', environment, 'start'],
      restart: true,
    },
    options.logger,
  );
  ui.start();
  return ui;
}

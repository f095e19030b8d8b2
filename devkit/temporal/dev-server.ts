import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import { allSearchAttributeKeys, searchAttributeTypeName } from '../../src/contract/temporal.js';

export interface DevServerOptions {
  cliPath: string;
  port: number;
  uiPort: number;
  /** Directory for the persistent SQLite database; workflows survive a restart. */
  dataDir: string;
  namespace: string;
  /** Where the Web UI asks to decrypt payloads (the codec server). */
  codecEndpoint?: string;
  /** Server settings beyond the defaults, e.g. `matching.numTaskqueueReadPartitions`. */
  dynamicConfig?: Record<string, number | string | boolean>;
  logger: Logger;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

/** `temporal server start-dev` flags registering every bankflow search attribute with its type. */
export function searchAttributeFlags(): string[] {
  return allSearchAttributeKeys.flatMap((key) => [
    '--search-attribute',
    `${key.name}=${searchAttributeTypeName(key.type)}`,
  ]);
}

/** Waits until a Temporal frontend answers on `address`; `exited` says when its process is gone. */
export async function waitUntilServing(
  address: string,
  exited: () => string | undefined,
  deadlineMs: number,
  what = 'the Temporal dev server',
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    const exit = exited();
    if (exit !== undefined) throw new Error(`${what} exited: ${exit}`);
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      await connection.workflowService.getSystemInfo({});
      await connection.close();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  throw new Error(`${what} did not answer on ${address} in time: ${String(lastError)}`);
}

/** Starts the embedded Temporal dev server (with its Web UI) on a persistent SQLite file. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  mkdirSync(options.dataDir, { recursive: true });
  const address = `127.0.0.1:${options.port}`;
  const log = options.logger.child({ component: 'temporal-dev-server' });
  const child = spawn(
    options.cliPath,
    [
      'server',
      'start-dev',
      '--ip',
      '127.0.0.1',
      '--port',
      String(options.port),
      '--ui-port',
      String(options.uiPort),
      '--db-filename',
      path.join(options.dataDir, 'temporal.db'),
      '--namespace',
      options.namespace,
      '--log-level',
      'error',
      ...searchAttributeFlags(),
      ...(options.codecEndpoint ? ['--ui-codec-endpoint', options.codecEndpoint] : []),
      ...Object.entries(options.dynamicConfig ?? {}).flatMap(([key, value]) => [
        '--dynamic-config-value',
        `${key}=${JSON.stringify(value)}`,
      ]),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => log.debug(chunk.toString().trim()));
  child.stderr?.on('data', (chunk: Buffer) => log.warn(chunk.toString().trim()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await waitUntilServing(
      address,
      () => (child.exitCode === null ? undefined : `code ${child.exitCode}`),
      60_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return {
    address,
    uiUrl: `http://localhost:${options.uiPort}`,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

import type { Command } from 'commander';
import { addServerCommand } from '../../src/cli/server-command.js';
import { demoCommand } from './demo/command.js';
import { developmentConfig } from './development-config.js';
import { sandboxIdsCommand } from './sandbox-ids.js';

/**
 * The development kit's commands, which `bankflow` offers only where devkit/ is (src/cli/devkit.ts). Each
 * loads what it runs when it runs: `bankflow --help` never holds the sandbox bank, the checkout or the
 * cluster.
 */
export function devkitCommands(program: Command): void {
  addServerCommand(program, {
    name: 'dev',
    description:
      'run the whole stack: embedded Temporal dev server (unless TEMPORAL_ADDRESS), sandbox bank (unless BANK_BASE_URL), worker',
    start: async (config, logger, tracing) =>
      (await import('../stack/dev-stack.js')).startDevStack(config, logger, tracing),
    load: developmentConfig('dev'),
    title: 'bankflow is running',
    urls: (stack) => stack.urls,
  });

  addServerCommand(program, {
    name: 'cluster',
    description:
      'run a production-shaped stack: Temporal server on a private PostgreSQL (SQL visibility), its Web UI, CLUSTER_WORKERS worker processes, receiver, merchant API, sandbox bank',
    start: async (config, logger) =>
      (await import('../stack/cluster/cluster-stack.js')).startClusterStack(config, logger),
    load: developmentConfig('cluster'),
    title: 'bankflow cluster is running',
    urls: (stack) => stack.urls,
  });

  const sandbox = addServerCommand(program, {
    name: 'sandbox',
    description: 'run the offline sandbox bank on SANDBOX_HOST:SANDBOX_PORT',
    start: async (config, logger) =>
      (await import('../stack/sandbox-process.js')).startConfiguredSandbox(config, logger),
    load: developmentConfig('sandbox'),
    title: 'sandbox bank is running',
    urls: (sandbox) => ({
      'Bank API': sandbox.url,
      'Control API': `${sandbox.url}/sandbox/`,
      'Control token': sandbox.shownControlToken,
    }),
  });
  sandboxIdsCommand(sandbox);

  demoCommand(program);
}

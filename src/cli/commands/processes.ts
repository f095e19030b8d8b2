import type { Command } from 'commander';
import type { Logger } from 'pino';
import { resolveBank } from '../../bank/base-url.js';
import { loadDevelopmentConfig, type Config } from '../../config.js';
import { stopOnSignals } from '../../stack/shutdown.js';
import { startWorker } from '../../stack/worker-process.js';
import type { Tracing } from '../../tracing/setup.js';
import { findTemporalCli } from '../../temporal/cli-binary.js';
import { cliContext } from '../context.js';
import { action } from '../errors.js';
import { printLines } from '../terminal-text.js';
import { sandboxIdsCommand } from './sandbox-ids.js';

function printUrls(title: string, urls: Record<string, string>): void {
  const width = Math.max(...Object.keys(urls).map((name) => name.length));
  printLines(`\n${title}`);
  for (const [name, url] of Object.entries(urls)) printLines(`  ${name.padEnd(width)}  ${url}`);
  printLines('\nPress Ctrl-C to stop.\n');
}

/** A long-running part of the stack as a command: how it starts, and what it prints once it is up. */
interface ServerCommand<Running extends { stop(): Promise<void> }> {
  name: string;
  description: string;
  start(config: Config, logger: Logger, tracing: Tracing | undefined): Promise<Running>;
  /** How the command reads its configuration, when not as any production process does. */
  load?: () => Config;
  title: string;
  urls(running: Running): Record<string, string>;
}

/** The OpenTelemetry SDK loads only when tracing is on: a process that does not trace never holds it. */
async function configuredTracing(config: Config, logger: Logger): Promise<Tracing | undefined> {
  if (!config.tracing) return undefined;
  return (await import('../../tracing/setup.js')).startConfiguredTracing(config.tracing, logger);
}

function addServerCommand<Running extends { stop(): Promise<void> }>(
  program: Command,
  server: ServerCommand<Running>,
): Command {
  return program
    .command(server.name)
    .description(server.description)
    .action(
      action(async () => {
        const { config, logger } = cliContext(server.load);
        const tracing = await configuredTracing(config, logger);
        const running = await server.start(config, logger, tracing);
        // Ctrl-C stops it cleanly from the moment the banner says so; the last spans are sent after.
        stopOnSignals(logger, async () => {
          await running.stop();
          await tracing?.shutdown();
        });
        printUrls(server.title, server.urls(running));
      }),
    );
}

export function processCommands(program: Command): void {
  addServerCommand(program, {
    name: 'dev',
    description:
      'run the whole stack: embedded Temporal dev server (unless TEMPORAL_ADDRESS), sandbox bank (unless BANK_BASE_URL), worker',
    // The sandbox bank and the checkout load only for the commands that run them: a worker process never holds them.
    start: async (config, logger, tracing) =>
      (await import('../../stack/dev-stack.js')).startDevStack(config, logger, tracing),
    load: () => loadDevelopmentConfig('dev'),
    title: 'bankflow is running',
    urls: (stack) => stack.urls,
  });

  addServerCommand(program, {
    name: 'cluster',
    description:
      'run a production-shaped stack: Temporal server on a private PostgreSQL (SQL visibility), its Web UI, CLUSTER_WORKERS worker processes, receiver, sandbox bank',
    start: async (config, logger) =>
      (await import('../../stack/cluster/cluster-stack.js')).startClusterStack(config, logger),
    load: () => loadDevelopmentConfig('cluster'),
    title: 'bankflow cluster is running',
    urls: (stack) => stack.urls,
  });

  program
    .command('worker')
    .description('run a worker on TEMPORAL_TASK_QUEUE (run as many as you like)')
    .action(
      action(async () => {
        const { config, logger } = cliContext();
        const tracing = await configuredTracing(config, logger);
        const worker = await startWorker(config.temporal, resolveBank(config), logger, config.jobs, tracing);
        stopOnSignals(logger, async () => {
          await worker.stop();
          await tracing?.shutdown();
        });
        logger.info(
          { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace },
          'worker running',
        );
        await worker.done;
      }),
    );

  addServerCommand(program, {
    name: 'webhooks',
    description:
      'run the webhook receiver on WEBHOOK_HOST:WEBHOOK_PORT (POST /webhooks, /healthz, /readyz, /metrics; ' +
      '/readyz and /metrics on METRICS_HOST:WEBHOOK_INTERNAL_PORT instead when set)',
    // Fastify and the receiver load only for the commands that serve them: a worker process never holds them.
    start: async (config, logger) =>
      (await import('../../stack/receiver-process.js')).startReceiver(config, config.temporal, logger),
    title: 'webhook receiver is running',
    urls: (receiver) => ({ Webhooks: `${receiver.url}/webhooks`, Metrics: receiver.metricsUrl }),
  });

  addServerCommand(program, {
    name: 'codec-server',
    description:
      'run the codec server the Temporal UI and CLI use to show decrypted payloads (CODEC_HOST:CODEC_PORT)',
    start: async (config, logger) =>
      (await import('../../stack/codec-process.js')).startCodecServer(config, logger),
    title: 'codec server is running',
    urls: (codec) => ({
      'Codec endpoint': codec.url,
      ...(codec.generatedToken ? { 'Codec token': codec.generatedToken } : {}),
    }),
  });

  const sandbox = addServerCommand(program, {
    name: 'sandbox',
    description: 'run the offline sandbox bank on SANDBOX_HOST:SANDBOX_PORT',
    start: async (config, logger) =>
      (await import('../../stack/sandbox-process.js')).startConfiguredSandbox(config, logger),
    load: () => loadDevelopmentConfig('sandbox'),
    title: 'sandbox bank is running',
    urls: (sandbox) => ({
      'Bank API': sandbox.url,
      'Control API': `${sandbox.url}/sandbox/`,
      'Control token': sandbox.shownControlToken,
    }),
  });
  sandboxIdsCommand(sandbox);

  program
    .command('temporal-cli')
    .description('print the path of a usable Temporal CLI, building it with Go into a cache on first use')
    .action(
      // Only TEMPORAL_CLI and PATH matter here: a CI job or a fresh machine fetches the CLI before any bank,
      // key or Temporal connection is configured, so the production checks of loadConfig do not apply.
      action(async () => {
        printLines(
          await findTemporalCli({
            explicitPath: process.env.TEMPORAL_CLI || undefined,
            pathEnv: process.env.PATH,
          }),
        );
      }),
    );
}

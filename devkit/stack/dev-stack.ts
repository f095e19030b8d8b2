import type { Logger } from 'pino';
import type { DevConfig } from '../config.js';
import { applySchedulesAtStart } from './schedules-at-start.js';
import { findTemporalCli } from '../../src/temporal/cli-binary.js';
import { startDevServer } from '../temporal/dev-server.js';
import { startCodecServer } from '../../src/stack/codec-process.js';
import { buildStack, startBankSide, startMerchantApi, type RunningStack } from './stack-parts.js';
import type { Tracing } from '../../src/tracing/setup.js';
import { startWorker } from '../../src/stack/worker-process.js';
import { reportSinkFor } from '../../src/reports/sink/index.js';

export type DevStack = RunningStack;

/**
 * `bankflow dev`: an embedded Temporal dev server (unless TEMPORAL_ADDRESS is set), the webhook receiver, the
 * sandbox bank delivering its webhooks to it with the reference checkout page (unless BANK_BASE_URL is set),
 * a worker and the merchant HTTP API, stopped in reverse order. A failure half-way stops what already
 * started.
 */
export function startDevStack(config: DevConfig, logger: Logger, tracing?: Tracing): Promise<DevStack> {
  return buildStack(logger, async (parts) => {
    const { urls } = parts;
    const codec = await startCodecServer(config, logger);
    parts.add(() => codec.stop());
    urls['Codec server'] = codec.url;
    if (codec.generatedToken) urls['Codec token'] = codec.generatedToken;

    let temporal = config.temporal;
    if (!temporal.address) {
      const cliPath = await findTemporalCli({ explicitPath: temporal.cliPath, pathEnv: temporal.searchPath });
      const server = await startDevServer({
        cliPath,
        port: config.devServerPort,
        uiPort: temporal.uiPort,
        dataDir: config.dataDir,
        namespace: temporal.namespace,
        codecEndpoint: codec.uiEndpoint,
        logger,
      });
      parts.add(() => server.stop());
      // The embedded server speaks plaintext whatever the profile asks of a remote one.
      temporal = {
        ...temporal,
        address: server.address,
        tls: false,
        apiKey: undefined,
        profileSource: 'the embedded dev server',
      };
      urls['Temporal UI'] = server.uiUrl;
    }
    urls['Temporal gRPC'] = temporal.address ?? '';

    const bank = await startBankSide(parts, config, temporal, logger);
    const worker = await startWorker(temporal, bank, logger, config, tracing);
    parts.add(() => worker.stop());
    urls['Task queue'] = temporal.taskQueue;
    await startMerchantApi(parts, config, temporal, bank, logger);
    const schedules = await applySchedulesAtStart(temporal, config.schedules, logger);
    urls['Schedules'] = schedules.map((schedule) => schedule.scheduleId).join(', ');
    urls['Reports'] = reportSinkFor(config.jobs).locate('');
  });
}

import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { tsToMs } from '@temporalio/common/lib/time.js';
import { startCliProcess, terminate, type CliProcess } from '../../bench/chaos/cli-process.js';
import { bankQueueRates } from '../../src/config/bank.js';
import { cancelBoletoWorkflow } from '../../src/workflows/boleto-cancel.js';
import { cliTestTimeoutMs, workerProcessEnv } from '../helpers/cli-env.js';
import { runCli, freePort } from '../helpers/cli.js';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { findTemporalCli } from '../../src/temporal/cli-binary.js';
import { bankflowDataConverter } from '../../src/temporal/data-converter.js';
import { startDevServer, type DevServer } from '../../devkit/temporal/dev-server.js';
import { encryptionKeys, startStackOn, testLogger, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const EventType = temporal.api.enums.v1.EventType;

/** The bank's limit, which bankflow is configured with too. */
const limit = 10;
/** The journeys' polls' part of the rest; none runs here. */
const pollReads = 1;
/**
 * A boleto's cancellation is a background call: its queue gets what the interactive share and the polls
 * leave, 4/s.
 */
const { background: backgroundShare = limit } = bankQueueRates({
  requestsPerSecond: limit,
  pollReadsPerSecond: pollReads,
});
/** About 25 seconds of work at that rate. */
const workflows = 100;
const namespace = 'default';

/**
 * Calls per second while the backlog lasts: over the middle 80 % of the calls, past the burst Temporal's
 * limiter lets through first and before the tail, when fewer of the queue's partitions still hold tasks.
 */
function sustainedRate(startedAt: number[]): number {
  const sorted = [...startedAt].sort((a, b) => a - b);
  const first = Math.floor(sorted.length * 0.1);
  const last = Math.ceil(sorted.length * 0.9) - 1;
  return (last - first) / (((sorted[last] ?? 0) - (sorted[first] ?? 0)) / 1_000);
}

describe('the bank rate limit across a fleet of workers', () => {
  const tempDir = tempDirs('bankflow-rate-limit-');
  let stack: TestStack;
  let server: DevServer;
  let log: WriteStream;
  const workers: CliProcess[] = [];

  const workerEnv = (extra: Record<string, string> = {}) =>
    workerProcessEnv(stack, {
      TEMPORAL_ADDRESS: server.address,
      TEMPORAL_NAMESPACE: namespace,
      BANK_RATE_LIMIT_PER_SECOND: String(limit),
      BANK_POLL_READS_PER_SECOND: String(pollReads),
      ...extra,
    });

  beforeAll(async () => {
    const dir = tempDir();
    // Temporal splits a queue's rate over its partitions, and a partition out of tasks leaves its share
    // unused: the queue that runs bank calls gets one partition (docs/operations.md).
    server = await startDevServer({
      cliPath: await findTemporalCli(),
      port: await freePort(),
      uiPort: await freePort(),
      dataDir: path.join(dir, 'temporal'),
      namespace,
      dynamicConfig: {
        'matching.numTaskqueueReadPartitions': 1,
        'matching.numTaskqueueWritePartitions': 1,
      },
      logger: testLogger(),
    });
    const workerConnection = await NativeConnection.connect({ address: server.address });
    const connection = await Connection.connect({ address: server.address });
    const client = new Client({
      connection,
      namespace,
      dataConverter: bankflowDataConverter(encryptionKeys),
    });
    stack = await startStackOn(
      {
        connection: workerConnection,
        namespace,
        client,
        async close() {
          await workerConnection.close();
          await connection.close();
        },
      },
      // A bank's bucket of a few seconds: a worker process the loaded machine starves for a moment sends the
      // calls Temporal handed it together. The pacing itself is what the sustained rate below measures.
      { sandbox: { rateLimit: { requestsPerSecond: limit, burst: 4 * limit } } },
    );
    // Only the two worker processes below serve the queue.
    await stack.stopWorker();
    log = createWriteStream(path.join(dir, 'workers.log'));
    for (const name of ['a', 'b']) {
      workers.push(
        startCliProcess(
          ['worker'],
          workerEnv({ BANKFLOW_DATA_DIR: path.join(dir, name) }),
          log,
          'worker running',
        ),
      );
    }
    await Promise.all(workers.map((worker) => worker.ready));
  }, cliTestTimeoutMs);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => terminate(worker, 5_000)));
    await new Promise((resolve) => log?.end(resolve));
    await stack?.stop();
    await server?.stop();
  });

  it(
    'two workers given twenty seconds of background bank calls at once stay within the background share: no 429, throughput at the share',
    async () => {
      const boletoId = [...stack.sandbox.state.boletos.keys()][0] ?? '';
      const prefix = `rate-limit-${randomUUID().slice(0, 8)}`;
      const handles = await Promise.all(
        Array.from({ length: workflows }, (_, index) =>
          stack.client.workflow.start(cancelBoletoWorkflow, {
            workflowId: `${prefix}-${index}`,
            taskQueue: stack.taskQueue,
            args: [{ boletoId }],
          }),
        ),
      );
      await Promise.all(handles.map((handle) => handle.result()));

      const startedAt = await Promise.all(
        handles.map(async (handle) => {
          const { events } = await handle.fetchHistory();
          const started = events?.find(
            (event) => event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED,
          );
          return tsToMs(started?.eventTime);
        }),
      );
      const rate = sustainedRate(startedAt);
      expect(stack.sandbox.rateLimit).toMatchObject({ admitted: workflows, refused: 0 });
      expect(rate).toBeGreaterThanOrEqual(backgroundShare * 0.9);
      expect(rate).toBeLessThanOrEqual(backgroundShare * 1.1);
    },
    cliTestTimeoutMs,
  );

  it(
    'a limit of 0 stops the worker at start with the variable named',
    async () => {
      const refused = await runCli(['worker'], workerEnv({ BANK_RATE_LIMIT_PER_SECOND: '0' }));
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/BANK_RATE_LIMIT_PER_SECOND.*above 0/);
    },
    cliTestTimeoutMs,
  );
});

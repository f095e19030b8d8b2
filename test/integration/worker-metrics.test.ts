import { randomUUID } from 'node:crypto';
import { createWriteStream, readFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { startCliProcess, terminate, type CliProcess } from '../../bench/chaos/cli-process.js';
import { cancelBoletoWorkflow } from '../../src/workflows/boleto-cancel.js';
import { cliTestTimeoutMs, workerProcessEnv } from '../helpers/cli-env.js';
import { freePort } from '../helpers/cli.js';
import { enroll, newCustomer, payAndSettle } from '../helpers/journey.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const unknownBoleto = '00000000-0000-4000-8000-000000000000';

async function scrape(port: number): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`);
  expect(response.status).toBe(200);
  return response.text();
}

/** The value of the first sample of `name` carrying every label given. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const line = text
    .split('\n')
    .find((candidate) =>
      candidate.startsWith(`${name}{`) || candidate.startsWith(`${name} `)
        ? Object.entries(labels).every(([key, value]) => candidate.includes(`${key}="${value}"`))
        : false,
    );
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('worker metrics: the Temporal SDK and bankflow, each on its own port', () => {
  const tempDir = tempDirs('bankflow-worker-metrics-');
  let stack: TestStack;
  let dir: string;
  let logFile: string;
  let log: WriteStream;
  let sdkPort: number;
  let workerPort: number;
  const workers: CliProcess[] = [];

  const startWorker = async (name: string) => {
    const worker = startCliProcess(
      ['worker'],
      workerProcessEnv(stack, {
        BANKFLOW_DATA_DIR: path.join(dir, name),
        TEMPORAL_METRICS_PORT: String(sdkPort),
        WORKER_METRICS_PORT: String(workerPort),
      }),
      log,
      'worker running',
    );
    workers.push(worker);
    await worker.ready;
    return worker;
  };

  const cancel = (boletoId: string) =>
    stack.client.workflow.execute(cancelBoletoWorkflow, {
      workflowId: `metrics-${randomUUID()}`,
      taskQueue: stack.taskQueue,
      args: [{ boletoId }],
    });

  beforeAll(async () => {
    stack = await startTestStack();
    await stack.stopWorker();
    dir = tempDir();
    logFile = path.join(dir, 'workers.log');
    log = createWriteStream(logFile);
    sdkPort = await freePort();
    workerPort = await freePort();
  });

  afterAll(async () => {
    await Promise.all(workers.map((worker) => terminate(worker, 5_000)));
    await new Promise((resolve) => log?.end(resolve));
    await stack?.stop();
  });

  it(
    'after a payment journey, a cancelled boleto and a refused one, both endpoints show the bank calls, the journeys, the workflows and the task queue',
    async () => {
      await startWorker('a');
      const boletoId = [...stack.sandbox.state.boletos.keys()][0] ?? '';
      await cancel(boletoId);
      await expect(cancel(unknownBoleto)).rejects.toThrow();
      const customer = await newCustomer(stack);
      const { result: enrolled } = await enroll(stack, customer);
      await payAndSettle(stack, customer, {
        externalId: `metrics-${randomUUID()}`,
        enrollmentId: enrolled.enrollment?.id ?? '',
        amountCents: 1_500,
        description: 'metrics',
      });

      const bankflow = await scrape(workerPort);
      expect(
        sample(bankflow, 'bankflow_bank_calls_total', {
          endpoint: 'cancelBoleto',
          outcome: 'ok',
          status: '2xx',
        }),
      ).toBe(1);
      expect(
        sample(bankflow, 'bankflow_bank_calls_total', {
          endpoint: 'cancelBoleto',
          outcome: 'BankNotFound',
          status: '404',
        }),
      ).toBe(1);
      expect(
        sample(bankflow, 'bankflow_bank_call_seconds_count', { endpoint: 'cancelBoleto', outcome: 'ok' }),
      ).toBe(1);
      expect(bankflow).toContain('bankflow_bank_call_seconds_bucket{le="0.1",endpoint="cancelBoleto"');

      const sdk = await scrape(sdkPort);
      const queue = { task_queue: stack.taskQueue };
      expect(
        sample(sdk, 'temporal_workflow_completed', { ...queue, workflow_type: 'cancelBoletoWorkflow' }),
      ).toBe(1);
      expect(
        sample(sdk, 'temporal_workflow_failed', { ...queue, workflow_type: 'cancelBoletoWorkflow' }),
      ).toBe(1);
      expect(
        sample(sdk, 'temporal_activity_execution_failed', { ...queue, activity_type: 'cancelBoleto' }),
      ).toBe(1);
      expect(sample(sdk, 'temporal_activity_schedule_to_start_latency_count', queue)).toBeGreaterThanOrEqual(
        2,
      );
      expect(sample(sdk, 'temporal_workflow_task_schedule_to_start_latency_count', queue)).toBeGreaterThan(0);
      expect(sample(sdk, 'temporal_worker_task_slots_available', queue)).toBeGreaterThan(0);
      expect(sample(sdk, 'temporal_sticky_cache_size')).toBeDefined();
      expect(sample(sdk, 'bankflow_journeys_total', { kind: 'payment', outcome: 'settled' })).toBe(1);
      for (const endpoint of ['createEnrollment', 'createBiometricPayment', 'authorizeBiometricPayment'])
        expect(
          sample(bankflow, 'bankflow_bank_calls_total', { endpoint, outcome: 'ok' }),
        ).toBeGreaterThanOrEqual(1);
    },
    cliTestTimeoutMs,
  );

  it(
    'a second worker whose metrics ports are taken logs a warning and still runs the journeys',
    async () => {
      const first = workers[0];
      await startWorker('b');
      if (first) await terminate(first, 5_000);
      const boletoId = [...stack.sandbox.state.boletos.keys()][1] ?? '';
      await expect(cancel(boletoId)).resolves.toMatchObject({ id: boletoId, status: 'cancelled' });
      const output = readFileSync(logFile, 'utf8');
      expect(output).toContain(
        `bankflow worker metrics not served: 127.0.0.1:${workerPort} is not available`,
      );
      expect(output).toContain(`Temporal SDK metrics not served: 127.0.0.1:${sdkPort} is not available`);
    },
    cliTestTimeoutMs,
  );
});

import { createWriteStream, existsSync, readdirSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { startCliProcess, terminate, type CliProcess } from '../../bench/chaos/cli-process.js';
import { seededRandomFor } from '../../devkit/sandbox/seed/random.js';
import { seedWorld } from '../../devkit/sandbox/seed/world.js';
import type { RunningObjectStore } from '../../devkit/object-store/seaweedfs.js';
import { windowFileBase } from '../../src/reports/files.js';
import { s3Sink, multipartPartBytes } from '../../src/reports/sink/s3-sink.js';
import type { ReportSink } from '../../src/reports/sink/index.js';
import { metricsSnapshot, transferReport } from '../../src/workflows/index.js';
import { csvRecords, parseCsv } from '../helpers/csv.js';
import { workerProcessEnv } from '../helpers/cli-env.js';
import { startTestObjectStore } from '../helpers/object-store.js';
import {
  expectedIds,
  expectedTotals,
  historiesOfChain,
  type Window,
} from '../helpers/report-expectations.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { tempDirs } from '../helpers/temp-dirs.js';

const now = new Date('2026-03-02T12:00:00.000Z');
const daysBefore = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
/** Only the bulk transfers lie here: the seeded world's records are within the 75 days before `now`. */
const bulkWindow: Window = { from: daysBefore(100), to: daysBefore(90) };
const bulkTransfers = 10_000;
const world = seedWorld(seededRandomFor(42, 'world'));

const PendingActivityState = temporal.api.enums.v1.PendingActivityState;

/** Every file under `dir`, relative to it; none when it does not exist. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/** The worker identity holding `activityType` once it runs; none if the workflow closes first. */
async function workerRunning(client: Client, workflowId: string, activityType: string) {
  const handle = client.workflow.getHandle(workflowId);
  for (;;) {
    const description = await handle.describe();
    if (description.status.name !== 'RUNNING') return undefined;
    const pending = description.raw.pendingActivities?.find(
      (activity) =>
        activity.activityType?.name === activityType &&
        activity.state === PendingActivityState.PENDING_ACTIVITY_STATE_STARTED,
    );
    if (pending?.lastWorkerIdentity) return pending.lastWorkerIdentity;
    await sleep(50);
  }
}

/**
 * A fleet without a shared disk: two `bankflow worker` processes, each with its own BANKFLOW_DATA_DIR and
 * REPORTS_DIR, on one task queue, keep reports in one S3 bucket (SeaweedFS, started here). Pages staged by
 * either are read by the other, and the worker writing the report dies mid-write.
 */
describe('reports in an S3-compatible object store shared by every worker', () => {
  const tempDir = tempDirs('bankflow-s3-reports-');
  let stack: TestStack;
  let objectStore: RunningObjectStore;
  let sink: ReportSink;
  let log: WriteStream;
  let logDir: string;
  const workers: CliProcess[] = [];
  const workerDirs: string[] = [];

  const startWorker = async (extra: Record<string, string> = {}) => {
    const dataDir = tempDir();
    workerDirs.push(dataDir);
    const worker = startCliProcess(
      ['worker'],
      workerProcessEnv(stack, {
        BANKFLOW_DATA_DIR: dataDir,
        REPORTS_DIR: path.join(dataDir, 'reports'),
        METRICS_BANK_ACCOUNT_IDS: world.bankAccountIds.join(','),
        ...objectStore.env,
        REPORTS_S3_PREFIX: 'fleet/',
        ...extra,
      }),
      log,
      'worker running',
    );
    workers.push(worker);
    await worker.ready;
    return worker;
  };

  beforeAll(async () => {
    logDir = tempDir();
    log = createWriteStream(path.join(logDir, 'workers.log'));
    stack = await startTestStack({ now });
    await stack.stopWorker();
    objectStore = await startTestObjectStore(path.join(logDir, 'seaweedfs'), stack.logger);
    sink = s3Sink({ ...objectStore.store, prefix: 'fleet/' });
  }, 240_000);

  afterAll(async () => {
    await Promise.all(workers.map((worker) => terminate(worker, 5_000)));
    await new Promise((resolve) => log?.end(resolve));
    await objectStore?.stop();
    await stack?.stop();
  });

  it('keeps objects whole: put, get, list, a multipart report, and delete by prefix', async () => {
    const base = `sink-${randomUUID()}/`;
    expect(await sink.get(`${base}none`)).toBeUndefined();
    await sink.put(`${base}b.txt`, 'b');
    await sink.put(`${base}a.txt`, 'a');
    expect(await sink.list(base)).toEqual([`${base}a.txt`, `${base}b.txt`]);

    // Larger than one part: written as a multipart upload, read back whole.
    const line = `${'x'.repeat(1023)}\n`;
    const lines = Math.ceil((multipartPartBytes * 2.5) / line.length);
    await sink.write(`${base}large.txt`, async (write) => {
      for (let index = 0; index < lines; index++) await write(line);
    });
    expect((await sink.get(`${base}large.txt`))?.length).toBe(lines * line.length);

    // A write that fails midway leaves nothing behind, not part of an object.
    await expect(
      sink.write(`${base}failed.txt`, async (write) => {
        for (let index = 0; index < lines / 2; index++) await write(line);
        throw new Error('the producer failed');
      }),
    ).rejects.toThrow('the producer failed');
    expect(await sink.get(`${base}failed.txt`)).toBeUndefined();

    await sink.deletePrefix(base);
    expect(await sink.list(base)).toEqual([]);
  }, 120_000);

  it('two workers with their own directories write one complete report set to the bucket, one killed mid-write', async () => {
    const response = await fetch(`${stack.sandbox.url}/sandbox/transfers/bulk`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        count: bulkTransfers,
        statuses: ['settled', 'failed', 'refunded'],
        ...bulkWindow,
      }),
    });
    expect(response.status).toBe(201);
    const first = await startWorker();
    const second = await startWorker();

    const workflowId = `test-transfer-report-s3-${randomUUID()}`;
    const handle = await stack.client.workflow.start(transferReport, {
      taskQueue: stack.taskQueue,
      workflowId,
      args: [bulkWindow],
    });
    const writer = await workerRunning(stack.client, workflowId, 'writeListReport');
    const doomed = [first, second].find((worker) => writer?.startsWith(`${worker.child.pid}@`));
    expect(doomed).toBeDefined();
    const killedAt = Date.now();
    doomed?.child.kill('SIGKILL');
    await doomed?.exited;

    const summary = await handle.result();
    // The heartbeat timeout, not the 10-minute start-to-close timeout, hands the write to the other worker.
    expect(Date.now() - killedAt).toBeLessThan(60_000);

    const transfers = stack.sandbox.state.bankData.transfers;
    const totals = expectedTotals(transfers, bulkWindow);
    const ids = expectedIds(transfers, bulkWindow);
    expect(summary.totals).toEqual(totals);
    expect(totals.count).toBe(bulkTransfers);
    const base = windowFileBase('transfer-report', bulkWindow);
    expect(summary.files).toEqual({
      json: sink.locate(`${base}.json`),
      csv: sink.locate(`${base}.csv`),
      totalsCsv: sink.locate(`${base}-totals.csv`),
    });
    expect(summary.files.json).toBe(`s3://bankflow-reports/fleet/${base}.json`);

    const json = JSON.parse((await sink.get(`${base}.json`)) ?? '{}');
    expect(json.totals).toEqual(totals);
    expect(json.transfers.map((transfer: { id: string }) => transfer.id)).toEqual(ids);
    const rows = csvRecords((await sink.get(`${base}.csv`)) ?? '');
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.reduce((sum, row) => sum + Number(row.amount_cents), 0)).toBe(totals.amount_cents);
    const totalsRows = parseCsv((await sink.get(`${base}-totals.csv`)) ?? '');
    expect(totalsRows.at(-1)).toEqual([
      'all',
      String(totals.count),
      String(totals.amount_cents),
      totals.amount_reais,
    ]);

    // Both workers staged pages, the writer's retry ran on the survivor, and no staging object is left.
    const events = (await historiesOfChain(stack.client, workflowId, handle.firstExecutionRunId)).flatMap(
      (history) => history.events ?? [],
    );
    const scheduled = new Map(
      events.flatMap((event) =>
        event.activityTaskScheduledEventAttributes
          ? [[String(event.eventId), event.activityTaskScheduledEventAttributes.activityType?.name]]
          : [],
      ),
    );
    const startsOf = (activityType: string) =>
      events.flatMap((event) => {
        const started = event.activityTaskStartedEventAttributes;
        return started && scheduled.get(String(started.scheduledEventId)) === activityType ? [started] : [];
      });
    const pidOf = (identity: string | null | undefined) => Number(identity?.split('@')[0]);
    expect(new Set(startsOf('collectReportPage').map((started) => pidOf(started.identity)))).toEqual(
      new Set([first.child.pid, second.child.pid]),
    );
    const survivor = doomed === first ? second : first;
    expect(startsOf('writeListReport').map((started) => [pidOf(started.identity), started.attempt])).toEqual([
      [survivor.child.pid, 2],
    ]);
    expect(await sink.list('.staging/')).toEqual([]);
    expect(await sink.list('')).toEqual([`${base}-totals.csv`, `${base}.csv`, `${base}.json`].sort());

    // Metrics snapshots go to the same bucket.
    const snapshot = await stack.client.workflow.execute(metricsSnapshot, {
      taskQueue: stack.taskQueue,
      workflowId: `test-metrics-snapshot-s3-${randomUUID()}`,
      args: [bulkWindow],
    });
    expect(snapshot.file).toMatch(/^s3:\/\/bankflow-reports\/fleet\/metrics-snapshot_/);
    const stored = JSON.parse(
      (await sink.get(String(snapshot.file).slice('s3://bankflow-reports/fleet/'.length))) ?? '{}',
    );
    expect(stored.accounts).toHaveLength(world.bankAccountIds.length);

    // Nothing landed on either worker's own disk.
    for (const dir of workerDirs) expect(filesUnder(dir)).toEqual([]);
  }, 300_000);
});

import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { seededRandomFor } from '../../devkit/sandbox/seed/random.js';
import { seedWorld } from '../../devkit/sandbox/seed/world.js';
import type { MetricsSnapshotResult, ReportSummary } from '../../src/contract/jobs.js';
import { reportPagesPerRun } from '../../src/workflows/jobs/list-report.js';
import { metricsSnapshot, refundReport, transferReport } from '../../src/workflows/index.js';
import { csvRecords, parseCsv } from '../helpers/csv.js';
import {
  expectedIds,
  expectedTotals,
  historyLengthsOfChain,
  inWindow,
  windowWithOne,
  type Window,
} from '../helpers/report-expectations.js';
import { startTestStack, type TestStack } from '../helpers/stack.js';
import { recordHistory } from '../helpers/replay.js';

const now = new Date('2026-03-02T12:00:00.000Z');
const daysBefore = (days: number) => new Date(now.getTime() - days * 86_400_000).toISOString();
/** Seeded records lie within the 60 days (plus a few refund days) before `now`. */
const emptyWindow: Window = { from: daysBefore(120), to: daysBefore(110) };
const wholeWindow: Window = { from: daysBefore(75), to: now.toISOString() };

const world = seedWorld(seededRandomFor(42, 'world'));
const unknownAccount = '0badacc0-0000-4000-8000-000000000000';

const compact = (iso: string) => iso.replace(/\.000Z$/, 'Z').replace(/[-:]/g, '');

describe('scheduled jobs over explicit windows: refund and transfer reports, metrics snapshots', () => {
  let stack: TestStack;
  let unconfigured: TestStack;

  beforeAll(async () => {
    stack = await startTestStack({
      now,
      jobs: { metricsBankAccountIds: [...world.bankAccountIds, unknownAccount] },
    });
    unconfigured = await startTestStack({ now });
  });
  afterAll(async () => {
    await stack?.stop();
    await unconfigured?.stop();
  });

  const run = async <T>(workflow: (input?: Window) => Promise<T>, window: Window, on = stack) => {
    const workflowId = `test-${workflow.name}-${randomUUID()}`;
    const result = await on.client.workflow.execute(workflow, {
      taskQueue: on.taskQueue,
      workflowId,
      args: [window],
    });
    await recordHistory(on.client, workflowId, workflow.name);
    return result;
  };

  const refunds = () => stack.sandbox.state.bankData.refunds;
  const transfers = () => stack.sandbox.state.bankData.transfers;

  function expectReportFiles(
    summary: ReportSummary,
    records: Parameters<typeof expectedTotals>[0],
    recordsKey: string,
  ) {
    const window = summary.window;
    const totals = expectedTotals(records, window);
    const ids = expectedIds(records, window);
    expect(summary.totals).toEqual(totals);

    const base = `${summary.job}_${compact(window.from)}_${compact(window.to)}`;
    expect(summary.files).toEqual({
      json: path.join(stack.jobs.reportsDir, `${base}.json`),
      csv: path.join(stack.jobs.reportsDir, `${base}.csv`),
      totalsCsv: path.join(stack.jobs.reportsDir, `${base}-totals.csv`),
    });

    const json = JSON.parse(readFileSync(summary.files.json, 'utf8'));
    expect(json.job).toBe(summary.job);
    expect(json.window).toEqual(window);
    expect(json.totals).toEqual(totals);
    expect(json[recordsKey].map((record: { id: string }) => record.id)).toEqual(ids);

    const rows = csvRecords(readFileSync(summary.files.csv, 'utf8'));
    expect(rows.map((row) => row.id)).toEqual(ids);
    const byId = new Map(records.map((record) => [record.id, record]));
    for (const row of rows) {
      const record = byId.get(row.id ?? '');
      expect(row.status).toBe(record?.status);
      expect(Number(row.amount_cents)).toBe(record?.amount.amount);
      expect(row.amount_reais).toBe(((record?.amount.amount ?? 0) / 100).toFixed(2));
    }

    const totalsRows = parseCsv(readFileSync(summary.files.totalsCsv, 'utf8'));
    expect(totalsRows[0]).toEqual(['status', 'count', 'amount_cents', 'amount_reais']);
    expect(totalsRows.slice(1)).toEqual([
      ...Object.entries(totals.by_status).map(([status, part]) => [
        status,
        String(part.count),
        String(part.amount_cents),
        part.amount_reais,
      ]),
      ['all', String(totals.count), String(totals.amount_cents), totals.amount_reais],
    ]);
    // The pages staged while listing are gone once the report is written.
    expect(readdirSync(path.join(stack.jobs.reportsDir, '.staging'))).toEqual([]);
  }

  describe('refundReport', () => {
    it('writes an empty report for a window without refunds', async () => {
      const summary = await run(refundReport, emptyWindow);
      expect(summary).toMatchObject({ job: 'refund-report', window: emptyWindow, pages: 1, runs: 1 });
      expect(summary.totals).toEqual({ count: 0, amount_cents: 0, amount_reais: '0.00', by_status: {} });
      expectReportFiles(summary, refunds(), 'refunds');
      expect(readFileSync(summary.files.csv, 'utf8').split('\r\n')).toEqual([
        'id,status,amount_cents,amount_reais,currency,timestamp,transaction_date,external_id,end_to_end_id,reconciliation_id,collecting_document_id,virtual_account_id,bank_account_id,entity_id,origin_type,description',
        '',
      ]);
    });

    it('reports the single refund of a one-refund window', async () => {
      const window = windowWithOne(refunds());
      const summary = await run(refundReport, window);
      expect(summary.totals.count).toBe(1);
      expectReportFiles(summary, refunds(), 'refunds');
      const [record] = JSON.parse(readFileSync(summary.files.json, 'utf8')).refunds;
      expect(record).toEqual(refunds().find((refund) => refund.id === record.id));
    });

    it('pages through more than 50 refunds and totals them by status in cents and reais', async () => {
      const summary = await run(refundReport, wholeWindow);
      expect(summary.totals.count).toBeGreaterThan(100);
      expect(summary.pages).toBe(Math.ceil(summary.totals.count / 50));
      expect(Object.keys(summary.totals.by_status).sort()).toEqual([
        'created',
        'failed',
        'processing',
        'settled',
      ]);
      expectReportFiles(summary, refunds(), 'refunds');
    });
  });

  describe('transferReport', () => {
    it('writes an empty report for a window without transfers', async () => {
      const summary = await run(transferReport, emptyWindow);
      expect(summary.totals.count).toBe(0);
      expectReportFiles(summary, transfers(), 'transfers');
    });

    it('quotes CSV fields and defuses spreadsheet formulas, keeping the JSON as the bank sent it', async () => {
      const window = windowWithOne(transfers());
      const record = transfers().find((transfer) => inWindow(transfer, window));
      const description = '=HYPERLINK("http://evil.example","open"), lote 7\nsegunda linha';
      if (record) record.description = description;

      const summary = await run(transferReport, window);
      expectReportFiles(summary, transfers(), 'transfers');
      const [row] = csvRecords(readFileSync(summary.files.csv, 'utf8'));
      expect(row?.description).toBe(`'${description}`);
      expect(readFileSync(summary.files.csv, 'utf8')).toContain(
        `"'=HYPERLINK(""http://evil.example"",""open""), lote 7\nsegunda linha"`,
      );
      expect(JSON.parse(readFileSync(summary.files.json, 'utf8')).transfers[0].description).toBe(description);
    });

    it('reports more than 50 transfers by status across every page', async () => {
      const summary = await run(transferReport, wholeWindow);
      expect(summary.totals.count).toBe(400);
      expect(summary.pages).toBe(8);
      expect(Object.keys(summary.totals.by_status).sort()).toEqual([
        'confirmed',
        'created',
        'failed',
        'refunded',
        'reversed',
        'settled',
      ]);
      expectReportFiles(summary, transfers(), 'transfers');
    });

    it('keeps every run short on a 10,000-transfer window by continuing as new with the cursor and totals', async () => {
      const window: Window = { from: daysBefore(100), to: daysBefore(90) };
      const response = await fetch(`${stack.sandbox.url}/sandbox/transfers/bulk`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ count: 10_000, statuses: ['settled', 'failed', 'refunded'], ...window }),
      });
      expect(response.status).toBe(201);

      const workflowId = `test-transfer-report-large-${randomUUID()}`;
      const handle = await stack.client.workflow.start(transferReport, {
        taskQueue: stack.taskQueue,
        workflowId,
        args: [window],
      });
      const summary = await handle.result();

      expect(summary.totals.count).toBe(10_000);
      expect(summary.totals.by_status.settled?.count).toBe(3334);
      expect(summary.totals.by_status.failed?.count).toBe(3333);
      expect(summary.totals.by_status.refunded?.count).toBe(3333);
      expect(summary.pages).toBe(200);
      expect(summary.runs).toBe(200 / reportPagesPerRun);
      expectReportFiles(summary, transfers(), 'transfers');

      const lengths = await historyLengthsOfChain(stack.client, workflowId, handle.firstExecutionRunId);
      expect(lengths).toHaveLength(summary.runs);
      // Bounded by the pages of one run, not by the 10,000 records: 6 events a page plus a few of its own.
      for (const length of lengths) expect(length).toBeLessThanOrEqual(6 * reportPagesPerRun + 20);
    }, 180_000);
  });

  describe('metricsSnapshot', () => {
    const expectedMetrics = (bankAccountId: string, window: Window) => {
      const sum = (
        records: { status: string; bank_account_id: string; timestamp: string; amount: { amount: number } }[],
        status: string,
      ) =>
        records
          .filter((r) => r.bank_account_id === bankAccountId && r.status === status && inWindow(r, window))
          .reduce((total, r) => total + r.amount.amount, 0);
      const cashIns = stack.sandbox.state.bankData.collectingDocuments;
      return {
        collecting_document: { settled: sum(cashIns, 'settled'), failed: sum(cashIns, 'failed') },
        payment_document: { settled: sum(transfers(), 'settled'), failed: sum(transfers(), 'failed') },
      };
    };

    function expectSnapshot(result: MetricsSnapshotResult, window: Window) {
      expect(result.status).toBe('stored');
      expect(result.window).toEqual(window);
      for (const bankAccountId of world.bankAccountIds) {
        const account = result.accounts.find((a) => a.bankAccountId === bankAccountId);
        expect(account).toEqual({
          bankAccountId,
          metrics: expectedMetrics(bankAccountId, window),
          error: null,
        });
      }
      const unknown = result.accounts.find((a) => a.bankAccountId === unknownAccount);
      expect(unknown?.metrics).toBeNull();
      expect(unknown?.error).toMatch(/not found/);

      expect(result.file).toMatch(
        new RegExp(`metrics-snapshot_${compact(window.from)}_${compact(window.to)}_[0-9a-f-]+\\.json$`),
      );
      const file = JSON.parse(readFileSync(result.file as string, 'utf8'));
      expect(file.window).toEqual(window);
      expect(Date.parse(file.taken_at)).not.toBeNaN();
      expect(file.accounts).toEqual(
        result.accounts.map((account) => ({
          bank_account_id: account.bankAccountId,
          ...(account.metrics ?? {}),
          error: account.error,
        })),
      );
    }

    it('says it had nothing to do when no bank account is configured, and writes nothing', async () => {
      const result = await run(metricsSnapshot, wholeWindow, unconfigured);
      expect(result).toEqual({
        job: 'metrics-snapshot',
        window: wholeWindow,
        status: 'nothing_to_do',
        message: expect.stringContaining('METRICS_BANK_ACCOUNT_IDS is empty'),
        accounts: [],
        file: null,
      });
      expect(readdirSync(unconfigured.jobs.reportsDir)).toEqual([]);
    });

    it('snapshots zeros for a window without documents', async () => {
      const result = await run(metricsSnapshot, emptyWindow);
      expectSnapshot(result, emptyWindow);
      expect(result.accounts[0]?.metrics).toEqual({
        collecting_document: { settled: 0, failed: 0 },
        payment_document: { settled: 0, failed: 0 },
      });
    });

    it('snapshots the one settled document of a one-document window', async () => {
      const documents = [...stack.sandbox.state.bankData.collectingDocuments, ...transfers()];
      const window = windowWithOne(documents, (document) => document.status === 'settled');
      const result = await run(metricsSnapshot, window);
      expectSnapshot(result, window);
      const settled = result.accounts.flatMap((a) =>
        a.metrics ? [a.metrics.collecting_document.settled, a.metrics.payment_document.settled] : [],
      );
      expect(settled.filter((cents) => cents > 0)).toHaveLength(1);
    });

    it('snapshots the totals of hundreds of documents, one file per run', async () => {
      const first = await run(metricsSnapshot, wholeWindow);
      const second = await run(metricsSnapshot, wholeWindow);
      expectSnapshot(first, wholeWindow);
      expectSnapshot(second, wholeWindow);
      expect(second.file).not.toBe(first.file);
      expect(existsSync(first.file as string)).toBe(true);
    });
  });

  describe('the window', () => {
    async function failureOf(promise: Promise<unknown>): Promise<ApplicationFailure> {
      const error = await promise.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(WorkflowFailedError);
      const cause = (error as WorkflowFailedError).cause;
      expect(cause).toBeInstanceOf(ApplicationFailure);
      return cause as ApplicationFailure;
    }

    it('is required when the run was not started by a Schedule', async () => {
      const failure = await failureOf(
        stack.client.workflow.execute(refundReport, {
          taskQueue: stack.taskQueue,
          workflowId: `test-refund-report-${randomUUID()}`,
          args: [],
        }),
      );
      expect(failure.type).toBe('InvalidJobWindow');
      expect(failure.message).toBe(
        'input: from and to are required when the workflow is not started by a Schedule',
      );
    });

    it('names the bound that is wrong', async () => {
      const missing = await failureOf(run(transferReport, { from: wholeWindow.from } as Window));
      expect(missing.message).toBe('to: is required when the other bound is given');
      const malformed = await failureOf(run(metricsSnapshot, { from: '2026-01-01', to: wholeWindow.to }));
      expect(malformed.message).toMatch(/^from: must be an ISO 8601 date-time/);
      const reversed = await failureOf(run(refundReport, { from: wholeWindow.to, to: wholeWindow.from }));
      expect(reversed.message).toBe('to: must be later than from');
      const covered = await failureOf(
        run(refundReport, { ...wholeWindow, coveredUntil: 'yesterday' } as Window),
      );
      expect(covered.message).toMatch(/^coveredUntil: must be an ISO 8601 date-time/);
    });

    it('takes any offset and reports in UTC', async () => {
      const summary = await run(refundReport, {
        from: '2026-02-01T00:00:00-03:00',
        to: '2026-02-02T00:00:00-03:00',
      });
      expect(summary.window).toEqual({ from: '2026-02-01T03:00:00.000Z', to: '2026-02-02T03:00:00.000Z' });
      expectReportFiles(summary, refunds(), 'refunds');
    });
  });
});

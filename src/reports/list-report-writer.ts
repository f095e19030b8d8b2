import { ApplicationFailure } from '@temporalio/common';
import type { WriteReportRequest, WrittenReport } from '../contract/jobs.js';
import { csvLine, type CsvValue } from './csv.js';
import { stagedPageKey, windowFileBase } from './files.js';
import { listReports, type ListReport, type ReportRecord } from './list-reports.js';
import type { ReportSink } from './sink/index.js';
import { addToTotals, emptyTotals, totalsInFile, type TotalsInFile } from './totals.js';

type StagedRecord = { record: ReportRecord; row: CsvValue[] };

async function readStagedPage(sink: ReportSink, report: ListReport, key: string): Promise<StagedRecord[]> {
  const text = await sink.get(key);
  if (text === undefined) {
    throw ApplicationFailure.create({
      type: 'ReportStagingMissing',
      nonRetryable: true,
      message:
        `staged page ${sink.locate(key)} is missing; every worker must reach the same report store ` +
        '(REPORTS_STORE=s3, or one REPORTS_DIR)',
    });
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => report.read(JSON.parse(line)));
}

/** What the writer reads from and writes to, and how it tells Temporal it is alive. */
export interface ReportWriting {
  sink: ReportSink;
  /** Called after every page read, so a worker that died mid-report is noticed by its heartbeat timeout. */
  heartbeat: () => void;
}

/** The staged pages in order, one page in memory at a time. */
async function* stagedPages(writing: ReportWriting, report: ListReport, request: WriteReportRequest) {
  for (let page = 0; page < request.pages; page++) {
    yield await readStagedPage(writing.sink, report, stagedPageKey(request.stagingKey, page));
    writing.heartbeat();
  }
}

function totalsCsv(totals: TotalsInFile): string {
  const rows = Object.entries(totals.by_status).map(([status, part]) => [
    status,
    part.count,
    part.amount_cents,
    part.amount_reais,
  ]);
  return [
    csvLine(['status', 'count', 'amount_cents', 'amount_reais']),
    ...rows.map(csvLine),
    csvLine(['all', totals.count, totals.amount_cents, totals.amount_reais]),
  ].join('');
}

/**
 * Writes a list report from its staged pages in the sink: `<job>_<from>_<to>.json` (window, totals, every
 * record as the bank sent it), `.csv` (one row per record) and `-totals.csv` (count and amounts per status,
 * then all). Totals are computed from the very records written, so the files always agree with each other.
 */
export async function writeListReport(
  writing: ReportWriting,
  request: WriteReportRequest,
  generatedAt: Date,
): Promise<WrittenReport> {
  const { sink } = writing;
  const report = listReports[request.job];
  const base = windowFileBase(request.job, request.window);
  const keys = { json: `${base}.json`, csv: `${base}.csv`, totalsCsv: `${base}-totals.csv` };
  const pages = () => stagedPages(writing, report, request);

  let counted = emptyTotals();
  for await (const page of pages()) {
    for (const { record } of page) counted = addToTotals(counted, record.status, record.amount.amount);
  }
  const totals = totalsInFile(counted);

  const head = JSON.stringify(
    { job: request.job, window: request.window, generated_at: generatedAt.toISOString(), totals },
    null,
    2,
  );
  await sink.write(keys.json, async (write) => {
    await write(`${head.slice(0, -2)},\n  ${JSON.stringify(report.recordsKey)}: [`);
    let written = 0;
    for await (const page of pages()) {
      const lines = page.map(({ record }) => `${written++ === 0 ? '' : ','}\n    ${JSON.stringify(record)}`);
      await write(lines.join(''));
    }
    await write(written === 0 ? ']\n}\n' : '\n  ]\n}\n');
  });
  await sink.write(keys.csv, async (write) => {
    await write(csvLine(report.headers));
    for await (const page of pages()) {
      await write(page.map(({ row }) => csvLine(row)).join(''));
    }
  });
  await sink.put(keys.totalsCsv, totalsCsv(totals));
  return {
    totals,
    files: {
      json: sink.locate(keys.json),
      csv: sink.locate(keys.csv),
      totalsCsv: sink.locate(keys.totalsCsv),
    },
  };
}

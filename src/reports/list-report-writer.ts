import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import type { WriteReportRequest, WrittenReport } from '../contract/jobs.js';
import { csvLine } from './csv.js';
import { stagedPageFile, stagingDir, windowFileBase, writeAtomically, writeTextAtomically } from './files.js';
import { listReports, type ListReport, type ReportRecord } from './list-reports.js';
import type { CsvValue } from './csv.js';
import { addToTotals, emptyTotals, totalsInFile, type TotalsInFile } from './totals.js';

type StagedRecord = { record: ReportRecord; row: CsvValue[] };

async function readStagedPage(report: ListReport, file: string): Promise<StagedRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw ApplicationFailure.create({
      type: 'ReportStagingMissing',
      nonRetryable: true,
      message: `staged page ${file} is missing; every worker must see the same REPORTS_DIR`,
    });
  }
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => report.read(JSON.parse(line)));
}

/** The staged pages in order, one page in memory at a time. */
async function* stagedPages(report: ListReport, dir: string, pages: number) {
  for (let page = 0; page < pages; page++) yield await readStagedPage(report, stagedPageFile(dir, page));
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
 * Writes a list report from its staged pages: `<job>_<from>_<to>.json` (window, totals, every record as the
 * bank sent it), `.csv` (one row per record) and `-totals.csv` (count and amounts per status, then all). Totals
 * are computed from the very records written, so the files always agree with each other.
 */
export async function writeListReport(
  reportsDir: string,
  request: WriteReportRequest,
  generatedAt: Date,
): Promise<WrittenReport> {
  const report = listReports[request.job];
  const dir = stagingDir(reportsDir, request.stagingKey);
  const base = path.join(reportsDir, windowFileBase(request.job, request.window));
  const files = { json: `${base}.json`, csv: `${base}.csv`, totalsCsv: `${base}-totals.csv` };

  let counted = emptyTotals();
  for await (const page of stagedPages(report, dir, request.pages)) {
    for (const { record } of page) counted = addToTotals(counted, record.status, record.amount.amount);
  }
  const totals = totalsInFile(counted);

  const head = JSON.stringify(
    { job: request.job, window: request.window, generated_at: generatedAt.toISOString(), totals },
    null,
    2,
  );
  await writeAtomically(files.json, async (write) => {
    await write(`${head.slice(0, -2)},\n  ${JSON.stringify(report.recordsKey)}: [`);
    let written = 0;
    for await (const page of stagedPages(report, dir, request.pages)) {
      const lines = page.map(({ record }) => `${written++ === 0 ? '' : ','}\n    ${JSON.stringify(record)}`);
      await write(lines.join(''));
    }
    await write(written === 0 ? ']\n}\n' : '\n  ]\n}\n');
  });
  await writeAtomically(files.csv, async (write) => {
    await write(csvLine(report.headers));
    for await (const page of stagedPages(report, dir, request.pages)) {
      await write(page.map(({ row }) => csvLine(row)).join(''));
    }
  });
  await writeTextAtomically(files.totalsCsv, totalsCsv(totals));
  return { totals, files };
}

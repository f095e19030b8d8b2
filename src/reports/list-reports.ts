import type { z } from 'zod';
import type { BankClient } from '../bank/client.js';
import type { ListEndpoint, Page } from '../bank/pagination.js';
import { listEndpoint } from '../bank/resources/index.js';
import type { Money } from '../bank/schemas/common.js';
import { receivableRefundSchema } from '../bank/schemas/refund.js';
import { transferDocumentSchema } from '../bank/schemas/transfer.js';
import type { ListReportJob, JobWindow } from '../contract/jobs.js';
import { refundColumns, transferColumns, type Column } from './columns.js';
import type { CsvValue } from './csv.js';

/** What every list report needs of a record. */
export interface ReportRecord {
  id: string;
  status: string;
  amount: Money;
}

/** How one list report reads the bank and lays out its files. */
export interface ListReport {
  /** The JSON report's key for the records, e.g. `refunds`. */
  recordsKey: string;
  endpoint: ListEndpoint;
  headers: string[];
  fetchPage(bank: BankClient, window: JobWindow, after: string | null): Promise<Page<ReportRecord>>;
  /** A staged record read back through the resource's schema, with its CSV row. */
  read(value: unknown): { record: ReportRecord; row: CsvValue[] };
}

function listReport<T extends ReportRecord>(definition: {
  recordsKey: string;
  endpoint: ListEndpoint;
  schema: z.ZodType<T>;
  columns: Column<T>[];
  fetchPage: (bank: BankClient, window: JobWindow, after: string | null) => Promise<Page<T>>;
}): ListReport {
  return {
    recordsKey: definition.recordsKey,
    endpoint: definition.endpoint,
    headers: definition.columns.map((column) => column.header),
    fetchPage: definition.fetchPage,
    read(value) {
      const record = definition.schema.parse(value);
      return { record, row: definition.columns.map((column) => column.value(record)) };
    },
  };
}

const windowQuery = (window: JobWindow, after: string | null) => ({
  from_datetime: window.from,
  to_datetime: window.to,
  ...(after ? { after } : {}),
});

export const listReports: Record<ListReportJob, ListReport> = {
  'refund-report': listReport({
    recordsKey: 'refunds',
    endpoint: listEndpoint('listReceivableRefunds'),
    schema: receivableRefundSchema,
    columns: refundColumns,
    fetchPage: (bank, window, after) => bank.listReceivableRefunds(windowQuery(window, after)),
  }),
  'transfer-report': listReport({
    recordsKey: 'transfers',
    endpoint: listEndpoint('listTransfers'),
    schema: transferDocumentSchema,
    columns: transferColumns,
    fetchPage: (bank, window, after) => bank.listTransfers(windowQuery(window, after)),
  }),
};

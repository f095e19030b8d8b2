import type { Command } from 'commander';
import { metricsQuerySchema, type Metrics } from '../../bank/schemas/metrics.js';
import { formatReais } from '../../money.js';
import { cliBank } from '../bank.js';
import { action } from '../errors.js';
import { addFilters, dateTimeValue, queryFromOptions, uuidValue, type Filter } from '../filters.js';
import { addTableOption, printRecord, type OutputOptions } from '../output.js';
import { formatTable, type Column } from '../table.js';

type MetricsRow = [documents: string, totals: Metrics['payment_document']];

const metricsColumns: Column<MetricsRow>[] = [
  { title: 'DOCUMENTS', value: ([documents]) => documents },
  { title: 'SETTLED', value: ([, totals]) => formatReais(totals.settled), align: 'right' },
  { title: 'FAILED', value: ([, totals]) => formatReais(totals.failed), align: 'right' },
];

/** The bank requires all three, so they are required options. */
const metricsFilters: Filter[] = [
  {
    flags: '--bank-account <id>',
    parameter: 'bank_account_id',
    value: uuidValue,
    description: 'the bank account (uuid)',
    required: true,
  },
  {
    flags: '--from <date-time>',
    parameter: 'from_datetime',
    value: dateTimeValue,
    description: 'documents at or after this instant (ISO 8601)',
    required: true,
  },
  {
    flags: '--to <date-time>',
    parameter: 'to_datetime',
    value: dateTimeValue,
    description: 'documents before this instant (ISO 8601)',
    required: true,
  },
];

export function metricsCommand(program: Command): void {
  addTableOption(
    addFilters(
      program
        .command('metrics')
        .description(
          "a bank account's settled and failed totals (cents) in a window: collecting documents (Pix cash-ins) and payment documents (cash-outs)",
        ),
      metricsFilters,
    ),
  ).action(
    action(async (options: OutputOptions & Record<string, unknown>) => {
      const query = queryFromOptions(metricsQuerySchema, metricsFilters, options);
      const bank = await cliBank();
      printRecord(await bank.getMetrics(query), options, (found) => [
        formatTable(
          [
            ['collecting_document', found.collecting_document],
            ['payment_document', found.payment_document],
          ],
          metricsColumns,
        ),
      ]);
    }),
  );
}

import type { Command } from 'commander';
import { refundListQuerySchema, type ReceivableRefund } from '../../bank/schemas/refund.js';
import { cliBank } from '../bank.js';
import { action } from '../errors.js';
import {
  addFilters,
  cursorFilters,
  windowFilters,
  queryFromOptions,
  uuidValue,
  type Filter,
} from '../filters.js';
import { money } from '../money.js';
import { addListOptions, printListing, type ListOptions } from '../output.js';
import type { Column } from '../table.js';

const refundColumns: Column<ReceivableRefund>[] = [
  { title: 'ID', value: (r) => r.id },
  { title: 'TIMESTAMP', value: (r) => r.timestamp },
  { title: 'STATUS', value: (r) => r.status },
  { title: 'AMOUNT', value: (r) => money(r.amount), align: 'right' },
  { title: 'END TO END ID', value: (r) => r.end_to_end_id },
  { title: 'DESCRIPTION', value: (r) => r.description },
];

const refundFilters: Filter[] = [
  {
    flags: '--virtual-account <id>',
    parameter: 'virtual_account_id',
    value: uuidValue,
    description: 'refunds of this virtual account (uuid)',
  },
  ...windowFilters('refunds'),
  {
    flags: '--reconciliation <id>',
    parameter: 'reconciliation_id',
    value: uuidValue,
    description: 'refunds with this reconciliation id (uuid)',
  },
  ...cursorFilters,
];

export function refundCommands(program: Command): void {
  const refunds = program.command('refunds').description('receivable refunds, read straight from the bank');
  addListOptions(
    addFilters(
      refunds.command('list').description('list receivable refunds, oldest first (50 per page)'),
      refundFilters,
    ),
  ).action(
    action(async (options: ListOptions & Record<string, unknown>) => {
      const query = queryFromOptions(refundListQuerySchema, refundFilters, options);
      const bank = cliBank();
      await printListing(
        {
          page: () => bank.listReceivableRefunds(query),
          every: () => bank.listAllReceivableRefunds(query),
          columns: refundColumns,
        },
        options,
      );
    }),
  );
}

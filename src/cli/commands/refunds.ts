import type { Command } from 'commander';
import { refundListQuerySchema, type ReceivableRefund } from '../../bank/schemas/refund.js';
import { bankListCommand } from '../bank-list.js';
import { cursorFilters, windowFilters, uuidValue, type Filter } from '../filters.js';
import { money } from '../money.js';
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
  bankListCommand(
    refunds.command('list').description('list receivable refunds, oldest first (50 per page)'),
    {
      filters: refundFilters,
      query: refundListQuerySchema,
      page: (bank, query) => bank.listReceivableRefunds(query),
      every: (bank, query) => bank.listAllReceivableRefunds(query),
      columns: refundColumns,
    },
  );
}

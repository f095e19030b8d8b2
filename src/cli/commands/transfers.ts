import type { Command } from 'commander';
import {
  transferListQuerySchema,
  transferStatuses,
  type TransferDocument,
} from '../../bank/schemas/transfer.js';
import { bankListCommand } from '../bank-list.js';
import { cursorFilters, windowFilters, oneOf, textValue, uuidValue, type Filter } from '../filters.js';
import { money } from '../money.js';
import type { Column } from '../table.js';

const transferColumns: Column<TransferDocument>[] = [
  { title: 'ID', value: (t) => t.id },
  { title: 'TIMESTAMP', value: (t) => t.timestamp },
  { title: 'STATUS', value: (t) => t.status },
  { title: 'AMOUNT', value: (t) => money(t.amount), align: 'right' },
  { title: 'EXTERNAL ID', value: (t) => t.external_id ?? '' },
  { title: 'DESCRIPTION', value: (t) => t.description ?? '' },
];

/** The bank requires the window, so --from and --to are required here too. */
const transferFilters: Filter[] = [
  ...windowFilters('transfers requested', true),
  {
    flags: '--status <status>',
    parameter: 'status',
    value: oneOf(transferStatuses),
    description: `transfers in this status: ${transferStatuses.join(', ')}`,
  },
  {
    flags: '--from-virtual-account <id>',
    parameter: 'from_virtual_account_id',
    value: uuidValue,
    description: 'transfers out of this virtual account (uuid)',
  },
  {
    flags: '--to-virtual-account <id>',
    parameter: 'to_virtual_account_id',
    value: uuidValue,
    description: 'transfers into this virtual account (uuid)',
  },
  {
    flags: '--external-id <id>',
    parameter: 'external_id',
    value: textValue,
    description: 'the transfer with this external id',
  },
  {
    flags: '--reconciliation <id>',
    parameter: 'reconciliation_id',
    value: uuidValue,
    description: 'transfers with this reconciliation id (uuid)',
  },
  ...cursorFilters,
];

export function transferCommands(program: Command): void {
  const transfers = program
    .command('transfers')
    .description('cash-out transfer documents, read straight from the bank');
  bankListCommand(
    transfers.command('list').description('list cash-out transfers in a window, oldest first (50 per page)'),
    {
      filters: transferFilters,
      query: transferListQuerySchema,
      page: (bank, query) => bank.listTransfers(query),
      every: (bank, query) => bank.listAllTransfers(query),
      columns: transferColumns,
    },
  );
}

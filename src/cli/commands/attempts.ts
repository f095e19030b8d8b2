import type { Command } from 'commander';
import {
  collectionAttemptListQuerySchema,
  maxCollectionAttemptPageSize,
  type CollectionAttempt,
  type CollectionAttemptStage,
} from '../../bank/schemas/collection-attempt.js';
import { bankListCommand } from '../bank-list.js';
import { cliBank } from '../bank.js';
import { action } from '../errors.js';
import {
  checkedArgument,
  countValue,
  cursorFilters,
  windowFilters,
  uuidValue,
  type Filter,
} from '../filters.js';
import { addTableOption, orDash, printRecord, type OutputOptions } from '../output.js';
import { formatTable, type Column } from '../table.js';

const attemptColumns: Column<CollectionAttempt>[] = [
  { title: 'ID', value: (a) => a.id },
  { title: 'TIMESTAMP', value: (a) => a.timestamp },
  { title: 'STATUS', value: (a) => a.status },
  { title: 'TYPE', value: (a) => a.type },
  { title: 'DUE', value: (a) => a.due_date },
  { title: 'EXTERNAL ID', value: (a) => a.external_id },
  { title: 'END TO END ID', value: (a) => orDash(a.end_to_end_id) },
];

const stageColumns: Column<CollectionAttemptStage>[] = [
  { title: 'STATUS', value: (s) => orDash(s.status) },
  { title: 'AT', value: (s) => orDash(s.inserted_at) },
  {
    title: 'ERROR',
    value: (s) => (s.error_code ? `${s.error_code}: ${orDash(s.error_message)}` : '-'),
  },
];

const attemptFilters: Filter[] = [
  {
    flags: '--entity <id>',
    parameter: 'entity_id',
    value: uuidValue,
    description: "attempts of this entity's recurrences (uuid)",
  },
  {
    flags: '--recurrence <id>',
    parameter: 'recurrence_id',
    value: uuidValue,
    description: 'attempts of this recurrence (uuid)',
  },
  {
    flags: '--collection <id>',
    parameter: 'collection_id',
    value: uuidValue,
    description: 'attempts of this collection (uuid)',
  },
  ...windowFilters('attempts'),
  {
    flags: '--limit <count>',
    parameter: 'limit',
    value: countValue,
    description: `records per page (default 50, at most ${maxCollectionAttemptPageSize})`,
  },
  ...cursorFilters,
];

export function attemptCommands(program: Command): void {
  const attempts = program
    .command('attempts')
    .description('Pix recurrence collection attempts, read straight from the bank');

  bankListCommand(attempts.command('list').description('list collection attempts, oldest first'), {
    filters: attemptFilters,
    query: collectionAttemptListQuerySchema,
    page: (bank, query) => bank.listCollectionAttempts(query),
    every: (bank, query) => bank.listAllCollectionAttempts(query),
    columns: attemptColumns,
  });

  addTableOption(
    attempts
      .command('get')
      .description('print one collection attempt with its stages')
      .argument('<attempt-id>', 'the attempt (uuid)'),
  ).action(
    action(async (attemptId: string, options: OutputOptions) => {
      const id = checkedArgument('<attempt-id>', uuidValue, attemptId);
      const bank = await cliBank();
      printRecord(await bank.getCollectionAttempt(id), options, (found) => [
        formatTable([found], attemptColumns),
        formatTable(found.stages ?? [], stageColumns),
      ]);
    }),
  );
}

import type { Command } from 'commander';
import type { z } from 'zod';
import type { BankClient } from '../bank/client.js';
import type { Page } from '../bank/pagination.js';
import { cliBank } from './bank.js';
import { action } from './errors.js';
import { addFilters, queryFromOptions, type Filter } from './filters.js';
import { addListOptions, printListing, type ListOptions } from './output.js';
import type { Column } from './table.js';

/** A bank list endpoint as a `list` command offers it: its options, its query and how its records print. */
export interface BankList<S extends z.ZodType, T> {
  filters: readonly Filter[];
  query: S;
  page(bank: BankClient, query: z.infer<S>): Promise<Page<T>>;
  every(bank: BankClient, query: z.infer<S>): AsyncIterable<T>;
  columns: readonly Column<T>[];
}

/** Makes `command` list the endpoint: the filters and list options, checked into a query, one page or all. */
export function bankListCommand<S extends z.ZodType, T>(command: Command, list: BankList<S, T>): Command {
  return addListOptions(addFilters(command, list.filters)).action(
    action(async (options: ListOptions & Record<string, unknown>) => {
      const query = queryFromOptions(list.query, list.filters, options);
      const bank = await cliBank();
      await printListing(
        {
          page: () => list.page(bank, query),
          every: () => list.every(bank, query),
          columns: list.columns,
        },
        options,
      );
    }),
  );
}

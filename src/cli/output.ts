import type { Command } from 'commander';
import { PageCursorConflictError, type Page } from '../bank/pagination.js';
import { InvalidInputError } from '../starter/errors.js';
import { printJson } from './context.js';
import { formatTable, type Column } from './table.js';
import { printLines } from './terminal-text.js';

export interface OutputOptions {
  table?: boolean;
}

export interface ListOptions extends OutputOptions {
  all?: boolean;
  before?: string;
  after?: string;
}

export function addTableOption(command: Command): Command {
  return command.option('--table', 'print a table for people instead of JSON');
}

export function addListOptions(command: Command): Command {
  return addTableOption(command).option('--all', 'follow the cursors and print every record of every page');
}

/** A list endpoint as a read command sees it: one page, or every record from the first page on. */
export interface Listing<T> {
  page(): Promise<Page<T>>;
  every(): AsyncIterable<T>;
  columns: readonly Column<T>[];
}

/** The client refuses both cursors before sending anything; on the command line that is an option error. */
function inOptionTerms(error: unknown): unknown {
  return error instanceof PageCursorConflictError
    ? new InvalidInputError('--before', 'cannot be used with --after; pass only one cursor')
    : error;
}

/**
 * One page as `{data, metadata}` (the bank's own shape, so the cursors can be passed back), or with `--all`
 * every record as `{data}`. A table for one page says on stderr how to get the next, keeping stdout the
 * table.
 */
export async function printListing<T>(listing: Listing<T>, options: ListOptions): Promise<void> {
  if (options.all && options.before !== undefined && options.after === undefined) {
    throw new InvalidInputError(
      '--all',
      'pages forward, from the first page or from --after; not from --before',
    );
  }
  try {
    if (options.all) {
      const records: T[] = [];
      for await (const record of listing.every()) records.push(record);
      if (options.table) printLines(formatTable(records, listing.columns));
      else printJson({ data: records });
      return;
    }
    const page = await listing.page();
    if (!options.table) return printJson(page);
    printLines(formatTable(page.data, listing.columns));
    if (page.metadata.has_next) {
      printLines(`more records: --after ${page.metadata.after ?? ''} for the next page, or --all`, 'stderr');
    }
  } catch (error) {
    throw inOptionTerms(error);
  }
}

/** One record as JSON, or as the tables `render` lays it out in. */
export function printRecord<T>(record: T, options: OutputOptions, render: (record: T) => string[]): void {
  if (options.table) printLines(render(record).join('\n\n'));
  else printJson(record);
}

/** A cell for a value the bank may leave empty. */
export const orDash = (value: string | null | undefined): string => value ?? '-';

import type { Command } from 'commander';
import { resolveBank } from '../../src/bank/base-url.js';
import { readControlToken } from '../sandbox/control-token-file.js';
import { idKinds, type IdKind, type IdListing, type ListedId } from '../sandbox/id-listing.js';
import { cliContext, printJson } from '../../src/cli/context.js';
import { sandboxControl } from './demo/sandbox-control.js';
import { developmentConfig } from './development-config.js';
import { action } from '../../src/cli/errors.js';
import { checkedArgument, oneOf } from '../../src/cli/filters.js';
import { addTableOption, type OutputOptions } from '../../src/cli/output.js';
import { formatTable, type Column } from '../../src/cli/table.js';
import { escapeLines, printLines } from '../../src/cli/terminal-text.js';

/** A kind as typed on the command line: `card-purchases` for the listing's `card_purchases`. */
const typed = (kind: IdKind) => kind.replaceAll('_', '-');
const kindNames = idKinds.map(typed) as [string, ...string[]];

interface Row extends ListedId {
  kind: string;
}

const columns: Column<Row>[] = [
  { title: 'KIND', value: (row) => row.kind },
  { title: 'ID', value: (row) => row.id },
  { title: 'ABOUT', value: (row) => row.about },
];

const rowsOf = (listing: IdListing, kinds: readonly IdKind[]): Row[] =>
  kinds.flatMap((kind) => listing[kind].map((listed) => ({ kind: typed(kind), ...listed })));

/** `bankflow sandbox ids`: the ids to try the other commands with, read from the sandbox's control API. */
export function sandboxIdsCommand(sandbox: Command): void {
  addTableOption(
    sandbox
      .command('ids')
      .description(
        "list the sandbox bank's ids by kind, each as the commands take it (seeded ones are stable for a seed)",
      )
      .argument('[kind]', `only this kind, one id per line: ${kindNames.join(', ')}`),
  ).action(
    action(async (kind: string | undefined, options: OutputOptions) => {
      const selected =
        kind === undefined
          ? undefined
          : idKinds[kindNames.indexOf(checkedArgument('[kind]', oneOf(kindNames), kind))];
      const { config } = await cliContext(developmentConfig('sandbox'));
      const token = readControlToken(config.dataDir, config.sandbox.controlToken);
      const listing = await sandboxControl(resolveBank(config).baseUrl, token).ids();
      if (options.table) printLines(formatTable(rowsOf(listing, selected ? [selected] : idKinds), columns));
      // One write: a reader that stops early (`| head -n 1`) then closes no pipe under a later line.
      else if (selected) {
        process.stdout.write(escapeLines(listing[selected].map((listed) => `${listed.id}\n`).join('')));
      } else printJson(listing);
    }),
  );
}

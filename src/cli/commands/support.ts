import type { Command } from 'commander';
import type { StuckJourney, SupportWorkflowRow } from '../../starter/index.js';
import type { KeptEvent } from '../../temporal/kept-events.js';
import { formatAge } from '../ages.js';
import { cliContext, printJson, withStarter, type CliContext } from '../context.js';
import { action } from '../errors.js';
import { withOptionNames } from '../option-names.js';
import { addTableOption, type OutputOptions } from '../output.js';
import { formatTable, type Column } from '../table.js';
import { printLines } from '../terminal-text.js';
import { workflowLink, workflowsQueryLink } from '../ui-links.js';

/** Links into the Temporal UI support staff use, from TEMPORAL_UI_URL and the namespace. */
const linksFor = ({ config }: CliContext) => ({
  workflow: (workflowId: string) => workflowLink(config.support.uiUrl, config.temporal.namespace, workflowId),
  list: (query: string) => workflowsQueryLink(config.support.uiUrl, config.temporal.namespace, query),
});

/** Rows as JSON, or as a table; an empty table says so on stderr, keeping stdout the (empty) table. */
function printRows<Row>(rows: Row[], columns: Column<Row>[], options: OutputOptions, none: string): void {
  if (!options.table) return printJson(rows);
  printLines(formatTable(rows, columns));
  if (rows.length === 0) printLines(none, 'stderr');
}

type Linked<Row> = Row & { link: string };

const workflowColumns: Column<Linked<SupportWorkflowRow>>[] = [
  { title: 'WORKFLOW', value: (row) => row.workflowId },
  { title: 'STATE', value: (row) => row.status },
  { title: 'EXECUTION', value: (row) => row.execution },
  { title: 'STARTED', value: (row) => row.startedAt },
  { title: 'LINK', value: (row) => row.link },
];

interface UnmatchedRow {
  workflowId: string;
  eventKey: string;
  category: string;
  type: string;
  refId: string;
  receivedAt: string;
  age: string;
  link: string;
}

const unmatchedRow = (kept: KeptEvent, link: string, now: number): UnmatchedRow => ({
  workflowId: kept.workflowId,
  eventKey: kept.event.key,
  category: kept.event.envelope.category,
  type: kept.event.envelope.type,
  refId: kept.event.envelope.ref_id,
  receivedAt: kept.event.receivedAt,
  age: formatAge(now - Date.parse(kept.event.receivedAt)),
  link,
});

const unmatchedColumns: Column<UnmatchedRow>[] = [
  { title: 'AGE', value: (row) => row.age, align: 'right' },
  { title: 'CATEGORY', value: (row) => `${row.category}/${row.type}` },
  { title: 'REF ID', value: (row) => row.refId },
  { title: 'EVENT', value: (row) => row.eventKey },
  { title: 'LINK', value: (row) => row.link },
];

const stuckColumns: Column<Linked<StuckJourney> & { stuckFor: string }>[] = [
  { title: 'STUCK FOR', value: (row) => row.stuckFor, align: 'right' },
  { title: 'WORKFLOW', value: (row) => row.workflowId },
  { title: 'STATE', value: (row) => row.status },
  { title: 'MEANING', value: (row) => row.rule.meaning },
  { title: 'LINK', value: (row) => row.link },
];

const stuckWorkersHint =
  'runs waiting for workers (no current version, or pinned to a version with none): bankflow doctor --as worker';

interface View {
  view: string;
  query: string;
  link: string;
}

const viewColumns: Column<View>[] = [
  { title: 'VIEW', value: (view) => view.view },
  { title: 'LINK', value: (view) => view.link },
];

async function supportViews(ctx: CliContext): Promise<View[]> {
  const { stuckRules, supportQueries } = await import('../../starter/index.js');
  const links = linksFor(ctx);
  const { taskQueue } = ctx.config.temporal;
  const now = new Date();
  const view = (name: string, query: string): View => ({ view: name, query, link: links.list(query) });
  return [
    view('unmatched webhook events, open', supportQueries.unmatched(taskQueue)),
    ...stuckRules.flatMap((rule) => [
      view(`${rule.kind}s ${rule.status}`, supportQueries.inState(rule, taskQueue)),
      view(`${rule.kind}s ${rule.status}, stuck as of now`, supportQueries.stuck(rule, taskQueue, now)),
    ]),
  ];
}

/** Kept in the reset run's history, where whoever reads it next finds why it was reset. */
const defaultResetReason =
  'nondeterminism after a query reached a worker new to the workflow (docs/reliability.md)';

export function supportCommands(program: Command): void {
  const support = program
    .command('support')
    .description(
      "support staff's questions: a customer's journeys, unmatched bank events, stuck journeys; resets after a " +
        'nondeterminism error',
    );

  addTableOption(
    support
      .command('find')
      .description(
        "a customer's enrollments and payments, with their states and Temporal UI links, newest first",
      )
      .requiredOption('--tax-number <cpf-or-cnpj>', "the customer's CPF or CNPJ, punctuation allowed"),
  ).action(
    action(async (options: OutputOptions & { taxNumber: string }) => {
      const ctx = await cliContext();
      const { findCustomerWorkflows } = await import('../../starter/index.js');
      const found = await withOptionNames({ taxNumber: '--tax-number' }, () =>
        withStarter(ctx, (starter) => findCustomerWorkflows(starter, { taxNumber: options.taxNumber })),
      );
      const links = linksFor(ctx);
      const rows = found.workflows.map((row) => ({ ...row, link: links.workflow(row.workflowId) }));
      if (options.table) {
        printRows(rows, workflowColumns, options, 'no enrollment or payment was started for this customer');
      } else {
        printJson({
          customerKey: found.customerKey,
          query: found.query,
          link: links.list(found.query),
          workflows: rows,
        });
      }
    }),
  );

  addTableOption(
    support
      .command('unmatched')
      .description('the bank events no workflow claimed that are still open, oldest first'),
  ).action(
    action(async (options: OutputOptions) => {
      const ctx = await cliContext();
      const { listUnmatchedWebhooks } = await import('../../starter/index.js');
      const kept = await withStarter(ctx, listUnmatchedWebhooks);
      const links = linksFor(ctx);
      const now = Date.now();
      const rows = kept.map((event) => unmatchedRow(event, links.workflow(event.workflowId), now));
      printRows(rows, unmatchedColumns, options, 'no unmatched webhook event is open');
    }),
  );

  support
    .command('resolve')
    .description('close an unmatched event with a note saying what was done; the note is kept in its history')
    .argument(
      '<event>',
      'the workflow id (webhook-unmatched:... or cash-in:...) or the event key `support unmatched` prints',
    )
    .requiredOption('--note <text>', 'what was done about the event')
    .option('--by <name>', 'who resolves it', 'support')
    .action(
      action(async (event: string, options: { note: string; by: string }) => {
        const ctx = await cliContext();
        const { resolveUnmatchedWebhook } = await import('../../starter/index.js');
        printJson(
          await withOptionNames({ event: '<event>', note: '--note', by: '--by' }, () =>
            withStarter(ctx, (starter) => resolveUnmatchedWebhook(starter, { event, ...options })),
          ),
        );
      }),
    );

  addTableOption(
    support
      .command('stuck')
      .description(
        "running enrollments and payments that have stayed in a state longer than the bank's windows allow; " +
          'runs that wait for a worker version with no workers: bankflow doctor',
      ),
  ).action(
    action(async (options: OutputOptions) => {
      const ctx = await cliContext();
      const { listStuckJourneys } = await import('../../starter/index.js');
      const stuck = await withStarter(ctx, (starter) => listStuckJourneys(starter));
      const links = linksFor(ctx);
      const rows = stuck.map((row) => ({
        ...row,
        stuckFor: formatAge(row.stuckForMs),
        link: links.workflow(row.workflowId),
      }));
      printRows(rows, stuckColumns, options, 'no enrollment or payment is stuck');
      // A run that waits for a worker never changes state: it shows here only once its window passes.
      if (options.table) printLines(stuckWorkersHint, 'stderr');
    }),
  );

  support
    .command('reset')
    .description(
      'reset a workflow whose workflow task failed with a nondeterminism error to the last workflow task ' +
        'completed before it; signals and updates after that point are applied again',
    )
    .argument('<workflow-id>', 'the workflow, as `support find` or the Temporal UI shows it')
    .option('--reason <text>', 'why, kept in the reset run', defaultResetReason)
    .option('--dry-run', 'only print what the reset would do', false)
    .action(
      action(async (workflowId: string, options: { reason: string; dryRun: boolean }) => {
        const ctx = await cliContext();
        const { resetAfterNondeterminism } = await import('../../temporal/nondeterminism-reset.js');
        const reset = await withStarter(ctx, ({ client }) =>
          resetAfterNondeterminism(client, { workflowId, ...options }),
        );
        printJson({ ...reset, link: linksFor(ctx).workflow(workflowId) });
      }),
    );

  addTableOption(
    support
      .command('links')
      .description('the Temporal UI views of these lists, to open or save: their queries and links'),
  ).action(
    action(async (options: OutputOptions) => {
      printRows(await supportViews(await cliContext()), viewColumns, options, '');
    }),
  );
}

import type { Command } from 'commander';
import type { GenerateRecurrenceRequest } from '../../bank/schemas/recurrence.js';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { readJsonInput } from '../json-input.js';
import { withOptionNames } from '../option-names.js';

const optionNames = {
  externalId: '--external-id',
  reason: '--reason',
  requestId: '--request-id',
  from: '--from',
  to: '--to',
  pageSize: '--page-size',
};

function pageSize(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value);
}

/** `bankflow recurrence create|get|cancel` and `bankflow sync attempts`. */
export function recurrenceCommands(program: Command): void {
  const recurrence = program
    .command('recurrence')
    .description('Pix recurrences: generate one and follow its collection attempts');

  recurrence
    .command('create')
    .description(
      "generate a recurrence from the bank's request body and print it (and its result once ended); the workflow recurrence:<external_id> then follows its attempts. Exit 1 when the external_id was used with another request",
    )
    .requiredOption(
      '--file <request.json>',
      'the generate-recurrence request as JSON, from a file or - for stdin',
    )
    .action(
      action(async (options: { file: string }) => {
        const ctx = await cliContext();
        const { startRecurrence } = await import('../../starter/index.js');
        const request = (await readJsonInput('--file', options.file)) as GenerateRecurrenceRequest;
        printJson(await withStarter(ctx, (starter) => startRecurrence(starter, request)));
      }),
    );

  recurrence
    .command('get')
    .description("print the recurrence's status and its collection attempts with their latest statuses")
    .requiredOption('--external-id <id>', 'the external_id the recurrence was created with')
    .action(
      action(async (options: { externalId: string }) => {
        const ctx = await cliContext();
        const { getRecurrence } = await import('../../starter/index.js');
        printJson(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) => getRecurrence(starter, options)),
          ),
        );
      }),
    );

  recurrence
    .command('cancel')
    .description(
      "cancel a recurrence: its workflow stops following the collection attempts and ends; prints its result (outcome stopped, with the reason). The bank's API has no call that cancels a recurrence: stop the collections with the bank by its own channel. Exit 1 when the recurrence has already ended or the reason is blank or too long",
    )
    .requiredOption('--external-id <id>', 'the external_id the recurrence was created with')
    .requiredOption(
      '--reason <text>',
      'why the recurrence is cancelled (1-500 characters), kept in its outcome',
    )
    .option('--request-id <id>', 'idempotency key: the same id asked again gets the first answer')
    .action(
      action(async (options: { externalId: string; reason: string; requestId?: string }) => {
        const ctx = await cliContext();
        const { cancelRecurrence } = await import('../../starter/index.js');
        printJson(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) => cancelRecurrence(starter, options)),
          ),
        );
      }),
    );

  program
    .command('sync')
    .description('one-off syncs from the bank into the workflows')
    .command('attempts')
    .description(
      'list the collection attempts of [from, to), update each recurrence workflow, and print the summary',
    )
    .requiredOption('--from <iso>', 'start of the window, inclusive (ISO 8601, e.g. 2025-06-01T00:00:00Z)')
    .requiredOption('--to <iso>', 'end of the window, exclusive')
    .option('--page-size <n>', "records per page asked of the bank (1-100; the bank's default is 50)")
    .action(
      action(async (options: { from: string; to: string; pageSize?: string }) => {
        const ctx = await cliContext();
        const { runAttemptsSync } = await import('../../starter/index.js');
        const input = { from: options.from, to: options.to, pageSize: pageSize(options.pageSize) };
        printJson(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) => runAttemptsSync(starter, input)),
          ),
        );
      }),
    );
}

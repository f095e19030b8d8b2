import type { Command } from 'commander';
import { defaultTemporalAddress } from '../../temporal/connection.js';
import { assertNoConflicts, registerSearchAttributes } from '../../temporal/search-attribute-registration.js';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';

export function setupCommand(program: Command): void {
  program
    .command('setup')
    .description(
      'prepare TEMPORAL_NAMESPACE for bankflow: register its search attributes (idempotent; the embedded dev server needs none of this)',
    )
    .action(
      action(async () => {
        const ctx = cliContext();
        const { namespace } = ctx.config.temporal;
        const address = ctx.config.temporal.address ?? defaultTemporalAddress;
        const results = await withStarter(ctx, ({ client }) =>
          registerSearchAttributes(client.connection, namespace, address),
        );
        printJson(results);
        assertNoConflicts(results, namespace);
      }),
    );
}

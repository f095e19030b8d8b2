import type { Command } from 'commander';
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
        const ctx = await cliContext();
        const [{ defaultTemporalAddress }, { assertNoConflicts, registerSearchAttributes }] =
          await Promise.all([
            import('../../temporal/connection.js'),
            import('../../temporal/search-attribute-registration.js'),
          ]);
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

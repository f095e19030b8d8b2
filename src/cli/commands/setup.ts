import type { Command } from 'commander';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { temporalAddress } from '../../temporal/address.js';

export function setupCommand(program: Command): void {
  program
    .command('setup')
    .description(
      'prepare TEMPORAL_NAMESPACE for bankflow: register its search attributes (idempotent; the embedded dev server needs none of this)',
    )
    .action(
      action(async () => {
        const ctx = await cliContext();
        const { assertNoConflicts, registerSearchAttributes } =
          await import('../../temporal/search-attribute-registration.js');
        const { namespace } = ctx.config.temporal;
        const address = temporalAddress(ctx.config.temporal);
        const results = await withStarter(ctx, ({ client }) =>
          registerSearchAttributes(client.connection, namespace, address),
        );
        printJson(results);
        assertNoConflicts(results, namespace);
      }),
    );
}

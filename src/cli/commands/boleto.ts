import type { Command } from 'commander';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { withOptionNames } from '../option-names.js';

export function boletoCommands(program: Command): void {
  const boleto = program.command('boleto').description('boleto operations');
  boleto
    .command('cancel')
    .description('cancel a boleto at the bank and print the cancelled boleto')
    .argument('<boleto-id>', 'the boleto id (uuid)')
    .action(
      action(async (boletoId: string) => {
        const ctx = await cliContext();
        const { cancelBoleto } = await import('../../starter/index.js');
        printJson(
          await withStarter(ctx, (starter) =>
            withOptionNames({ boletoId: '<boleto-id>' }, () => cancelBoleto(starter, { boletoId })),
          ),
        );
      }),
    );
}

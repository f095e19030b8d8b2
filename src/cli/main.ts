import { Command } from 'commander';
import { boletoCommands } from './commands/boleto.js';
import { processCommands } from './commands/processes.js';

const program = new Command()
  .name('bankflow')
  .description('Durable Temporal workflows for the Banking API: Pix biometrics, recurrences, refunds, boletos and more')
  .showHelpAfterError();

processCommands(program);
boletoCommands(program);

await program.parseAsync(process.argv);

import { Command } from 'commander';
import { boletoCommands } from './commands/boleto.js';
import { demoCommand } from './commands/demo.js';
import { deviceCommands } from './commands/devices.js';
import { enrollmentCommands } from './commands/enrollment.js';
import { paymentCommands } from './commands/payment.js';
import { processCommands } from './commands/processes.js';

const program = new Command()
  .name('bankflow')
  .description(
    'Durable Temporal workflows for the Banking API: Pix biometrics, recurrences, refunds, boletos and more',
  )
  .showHelpAfterError();

processCommands(program);
boletoCommands(program);
deviceCommands(program);
enrollmentCommands(program);
paymentCommands(program);
demoCommand(program);

await program.parseAsync(process.argv);

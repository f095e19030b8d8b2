import { Command } from 'commander';
import { attemptCommands } from './commands/attempts.js';
import { boletoCommands } from './commands/boleto.js';
import { cardCommands } from './commands/cards.js';
import { doctorCommand } from './commands/doctor.js';
import { deploymentCommands } from './commands/deployments.js';
import { deviceCommands } from './commands/devices.js';
import { enrollmentCommands } from './commands/enrollment.js';
import type { AddCommands } from './devkit.js';
import { commandExamples } from './examples.js';
import { metricsCommand } from './commands/metrics.js';
import { notificationCommands } from './commands/notifications.js';
import { paymentCommands } from './commands/payment.js';
import { processCommands } from './commands/processes.js';
import { recurrenceCommands } from './commands/recurrences.js';
import { refundCommands } from './commands/refunds.js';
import { scheduleCommands } from './commands/schedules.js';
import { setupCommand } from './commands/setup.js';
import { supportCommands } from './commands/support.js';
import { transferCommands } from './commands/transfers.js';

/** `--help` of each command ends with its examples, the ones docs/cli.md shows and a test runs. */
function addExamples(command: Command, path: string[] = []): void {
  for (const sub of command.commands) {
    const subPath = [...path, sub.name()];
    const lines = commandExamples[subPath.join(' ')]?.lines ?? [];
    if (lines.length > 0)
      sub.addHelpText('after', ['', 'Examples:', ...lines.map((line) => `  ${line}`)].join('\n'));
    addExamples(sub, subPath);
  }
}

/**
 * The `bankflow` command line, built without running it: the CLI runs it, docs/cli.md is generated from it.
 * The development kit's commands come from devkit/ where it exists (src/cli/devkit.ts).
 */
export function buildProgram(addDevkitCommands: AddCommands): Command {
  const program = new Command()
    .name('bankflow')
    .description(
      'Durable Temporal workflows for the Banking API: Pix biometrics, recurrences, refunds, boletos and more',
    )
    .showHelpAfterError();

  processCommands(program);
  addDevkitCommands(program);
  boletoCommands(program);
  deviceCommands(program);
  enrollmentCommands(program);
  paymentCommands(program);
  recurrenceCommands(program);
  cardCommands(program);
  refundCommands(program);
  transferCommands(program);
  attemptCommands(program);
  metricsCommand(program);
  scheduleCommands(program);
  deploymentCommands(program);
  setupCommand(program);
  doctorCommand(program);
  supportCommands(program);
  notificationCommands(program);
  addExamples(program);
  return program;
}

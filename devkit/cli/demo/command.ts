import type { Command } from 'commander';
import { resolveBank } from '../../../src/bank/base-url.js';
import { readControlToken } from '../../sandbox/control-token-file.js';
import { bankReadContext } from '../../../src/cli/bank.js';
import { cliContext, withStarter } from '../../../src/cli/context.js';
import { developmentConfig } from '../development-config.js';
import { printLines } from '../../../src/cli/terminal-text.js';
import { workflowLink } from '../../../src/cli/ui-links.js';
import { action } from '../../../src/cli/errors.js';
import { parseCents } from '../../../src/cli/option-names.js';
import { temporalAddress } from '../../../src/temporal/address.js';

export function demoCommand(program: Command): void {
  program
    .command('demo')
    .description(
      'run the whole Pix biometrics journey against the running stack (npm start): device, enrollment, payment',
    )
    .option(
      '--ui-url <url>',
      'the Temporal UI the workflow links point to (default: http://localhost:TEMPORAL_UI_PORT)',
    )
    .option(
      '--amount <cents>',
      'the payment amount in cents; the sandbox fails ...91 and rejects ...92',
      '1050',
    )
    .action(
      action(async (options: { uiUrl?: string; amount: string }) => {
        const ctx = await cliContext(developmentConfig('demo'));
        // The journey drives the starter (the Temporal client) and the bank client: loaded when the demo
        // runs.
        const [{ demoStepCount, runDemoJourney }, { formatDuration, StepPrinter }] = await Promise.all([
          import('./journey.js'),
          import('./steps.js'),
        ]);
        const { temporal } = ctx.config;
        const amountCents = parseCents('--amount', options.amount);
        const sandboxUrl = resolveBank(ctx.config).baseUrl;
        const uiUrl = options.uiUrl ?? `http://localhost:${temporal.uiPort}`;
        printLines(
          `bankflow demo: bank ${sandboxUrl}, Temporal ${temporalAddress(temporal)} ` +
            `(namespace ${temporal.namespace}, task queue ${temporal.taskQueue})\n`,
        );
        const bank = await bankReadContext(ctx);
        const steps = new StepPrinter(demoStepCount, (line) => printLines(line));
        const started = performance.now();
        const result = await withStarter(ctx, (starter) =>
          runDemoJourney({
            starter,
            bank,
            sandboxUrl,
            sandboxToken: readControlToken(ctx.config.dataDir, ctx.config.sandbox.controlToken),
            amountCents,
            steps,
            onWorkflow: (workflowId) =>
              steps.note(`${workflowId}  ${workflowLink(uiUrl, temporal.namespace, workflowId)}`),
          }),
        );
        const took = formatDuration(performance.now() - started);
        if (result.outcome !== 'settled') {
          throw new Error(`the payment ended ${result.outcome} after ${took}: ${result.reason}`);
        }
        printLines(`\npayment settled in ${took}`);
      }),
    );
}

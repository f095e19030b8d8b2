import type { Command } from 'commander';
import type { AuthorizeFidoAssertion } from '../../bank/schemas/fido.js';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { readAssertion } from '../json-input.js';
import { parseCents, withOptionNames } from '../option-names.js';
import { parseReplyWait, replyWaitOption } from '../reply-wait.js';
import { taxNumberOption } from '../customer-option.js';
import { printLines } from '../terminal-text.js';

const optionNames = {
  requestId: '--request-id',
  externalId: '--external-id',
  customerTaxNumber: '--tax-number',
  enrollmentId: '--enrollment',
  deviceId: '--device',
  amountCents: '--amount',
  description: '--description',
  entityId: '--entity',
  virtualAccountId: '--virtual-account',
  assertion: '--assertion',
};

interface StartOptions {
  enrollment: string;
  device: string;
  amount: string;
  description: string;
  entity: string;
  virtualAccount: string;
  externalId?: string;
  taxNumber?: string;
}

function byExternalId(command: Command): Command {
  return command.requiredOption('--external-id <id>', 'your reference for the payment');
}

export function paymentCommands(program: Command): void {
  const payment = program
    .command('payment')
    .description('Pix payments authorized with a FIDO assertion (biometric steps 7-10)');

  payment
    .command('start')
    .description(
      'start (or join) a payment and print it with the authorization options for the widget (and its result once ended); exit 1 when the external id was started with other terms',
    )
    .requiredOption('--enrollment <id>', 'the authorized enrollment paying (uuid)')
    .requiredOption('--device <id>', 'the enrolled device (uuid)')
    .requiredOption('--amount <cents>', 'the amount in cents, e.g. 1050 for R$ 10,50')
    .requiredOption('--description <text>', 'what the customer sees (at most 140 characters)')
    .requiredOption('--entity <id>', 'the receiving entity (uuid)')
    .requiredOption('--virtual-account <id>', 'the virtual account receiving the funds (uuid)')
    .option('--external-id <id>', 'your reference for the payment (default: a generated pix-<uuid>)')
    .addOption(taxNumberOption())
    .action(
      action(async (options: StartOptions) => {
        const ctx = await cliContext();
        const { startPayment } = await import('../../starter/index.js');
        const created = await withOptionNames(optionNames, () => {
          const input = {
            externalId: options.externalId,
            enrollmentId: options.enrollment,
            deviceId: options.device,
            amountCents: parseCents('--amount', options.amount),
            description: options.description,
            entityId: options.entity,
            virtualAccountId: options.virtualAccount,
            customerTaxNumber: options.taxNumber,
          };
          return withStarter(ctx, (starter) => startPayment(starter, input));
        });
        const { externalId, workflowId, payment: record, publicKeyEncoded, result } = created;
        printJson({
          externalId,
          workflowId,
          payment: record,
          publicKeyEncoded,
          ...(result ? { result } : {}),
        });
      }),
    );

  replyWaitOption(byExternalId(payment.command('options')))
    .description('print fresh authorization options (public_key_encoded) while the consent window is open')
    .action(
      action(async (options: { externalId: string; wait: string; requestId?: string }) => {
        const ctx = await cliContext();
        const { getAuthorizationOptions } = await import('../../starter/index.js');
        const replyTimeoutMs = parseReplyWait(options.wait);
        printLines(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) =>
              getAuthorizationOptions(
                { ...starter, replyTimeoutMs },
                { externalId: options.externalId, requestId: options.requestId },
              ),
            ),
          ),
        );
      }),
    );

  replyWaitOption(byExternalId(payment.command('authorize')))
    .description("send the widget's assertion and print the new status, or exit 1 with the bank's reason")
    .requiredOption('--assertion <file>', "the widget's assertion as JSON, from a file or - for stdin")
    .action(
      action(async (options: { externalId: string; assertion: string; wait: string; requestId?: string }) => {
        const ctx = await cliContext();
        const { authorizePayment } = await import('../../starter/index.js');
        const replyTimeoutMs = parseReplyWait(options.wait);
        const result = await withOptionNames(optionNames, async () => {
          const assertion = (await readAssertion('--assertion', options.assertion)) as AuthorizeFidoAssertion;
          return withStarter(ctx, (starter) =>
            authorizePayment(
              { ...starter, replyTimeoutMs },
              { externalId: options.externalId, assertion, requestId: options.requestId },
            ),
          );
        });
        printJson(result);
        if (!result.ok) throw new Error(`the bank refused the assertion: ${result.reason}`);
      }),
    );

  byExternalId(payment.command('get'))
    .description('print where the payment stands, with the evidence gathered so far')
    .action(
      action(async (options: { externalId: string }) => {
        const ctx = await cliContext();
        const { getPayment } = await import('../../starter/index.js');
        printJson(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) => getPayment(starter, options)),
          ),
        );
      }),
    );

  byExternalId(payment.command('wait'))
    .description('wait for the final status and print it; exit 1 unless the payment settled')
    .action(
      action(async (options: { externalId: string }) => {
        const ctx = await cliContext();
        const { waitForPaymentResult } = await import('../../starter/index.js');
        const result = await withOptionNames(optionNames, () =>
          withStarter(ctx, (starter) => waitForPaymentResult(starter, options)),
        );
        printJson(result);
        if (result.outcome !== 'settled')
          throw new Error(`the payment ended ${result.outcome}: ${result.reason}`);
      }),
    );
}

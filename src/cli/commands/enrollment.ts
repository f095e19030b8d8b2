import type { Command } from 'commander';
import type { RegisterFidoAssertion } from '../../bank/schemas/fido.js';
import type { SuggestedAccount } from '../../bank/schemas/enrollment-request.js';
import { InvalidInputError } from '../../starter/errors.js';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { readAssertion } from '../json-input.js';
import { withOptionNames } from '../option-names.js';
import { parseReplyWait, replyWaitOption } from '../reply-wait.js';
import { taxNumberOption } from '../customer-option.js';
import { printLines } from '../terminal-text.js';

const optionNames = {
  requestId: '--request-id',
  deviceId: '--device',
  participantId: '--participant',
  returnToUrl: '--return-to',
  externalId: '--external-id',
  customerTaxNumber: '--tax-number',
  'suggestedAccount.ispb': '--account-ispb',
  'suggestedAccount.issuer': '--account-issuer',
  'suggestedAccount.number': '--account-number',
  'suggestedAccount.account_type': '--account-type',
  assertion: '--assertion',
};

interface KeyOptions {
  device: string;
  participant: string;
}

interface StartOptions extends KeyOptions {
  returnTo: string;
  externalId?: string;
  taxNumber?: string;
  accountIspb?: string;
  accountIssuer?: string;
  accountNumber?: string;
  accountType?: string;
}

const keyOf = (options: KeyOptions) => ({ deviceId: options.device, participantId: options.participant });

/** The account the merchant suggests: all three of ISPB, branch and number, or none of them. */
function suggestedAccount(options: StartOptions): SuggestedAccount | undefined {
  const { accountIspb: ispb, accountIssuer: issuer, accountNumber: number, accountType } = options;
  if ([ispb, issuer, number, accountType].every((value) => value === undefined)) return undefined;
  if (ispb === undefined || issuer === undefined || number === undefined) {
    const missing =
      ispb === undefined ? '--account-ispb' : issuer === undefined ? '--account-issuer' : '--account-number';
    throw new InvalidInputError(
      missing,
      'is required to suggest an account (--account-ispb, --account-issuer and --account-number go together)',
    );
  }
  // The starter validates the type; a wrong one is reported against --account-type.
  const type = accountType as SuggestedAccount['account_type'];
  return { ispb, issuer, number, ...(type === undefined ? {} : { account_type: type }) };
}

function keyed(command: Command): Command {
  return command
    .requiredOption('--device <id>', 'the device id (uuid)')
    .requiredOption('--participant <id>', 'the participant id (uuid)');
}

export function enrollmentCommands(program: Command): void {
  const enrollment = program
    .command('enrollment')
    .description('Pix biometric enrollment of a device with a participant (biometric steps 4-6)');

  keyed(enrollment.command('start'))
    .description(
      'start (or join) the enrollment and print the redirect URL to send the customer to (and its outcome once ended); exit 1 when it was started with other terms',
    )
    .requiredOption('--return-to <url>', 'where the bank sends the customer back after registering')
    .option(
      '--external-id <id>',
      'your reference for the enrollment (default: derived from device and participant)',
    )
    .option('--account-ispb <digits>', 'suggested account: ISPB of its institution (8 digits)')
    .option('--account-issuer <branch>', 'suggested account: branch')
    .option('--account-number <number>', 'suggested account: number')
    .option('--account-type <type>', 'suggested account: checking, payment, salary or savings')
    .addOption(taxNumberOption())
    .action(
      action(async (options: StartOptions) => {
        const ctx = await cliContext();
        const { startEnrollment } = await import('../../starter/index.js');
        const started = await withOptionNames(optionNames, () => {
          const input = {
            ...keyOf(options),
            returnToUrl: options.returnTo,
            externalId: options.externalId,
            suggestedAccount: suggestedAccount(options),
            customerTaxNumber: options.taxNumber,
          };
          return withStarter(ctx, (starter) => startEnrollment(starter, input));
        });
        const { workflowId, enrollmentId, redirectUrl, status, expirationDatetime, result } = started;
        printJson({
          workflowId,
          enrollmentId,
          redirectUrl,
          status,
          expirationDatetime,
          ...(result ? { result } : {}),
        });
      }),
    );

  replyWaitOption(keyed(enrollment.command('options')))
    .description(
      'print the WebAuthn creation options (public_key_encoded), waiting for the customer to authorize at the bank',
    )
    .action(
      action(async (options: KeyOptions & { wait: string; requestId?: string }) => {
        const ctx = await cliContext();
        const { getRegistrationOptions } = await import('../../starter/index.js');
        const replyTimeoutMs = parseReplyWait(options.wait);
        printLines(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) =>
              getRegistrationOptions(
                { ...starter, replyTimeoutMs },
                { ...keyOf(options), requestId: options.requestId },
              ),
            ),
          ),
        );
      }),
    );

  replyWaitOption(keyed(enrollment.command('register')))
    .description("register the credential the customer's device created and print the bank's answer")
    .requiredOption('--assertion <file>', "the device's attestation as JSON, from a file or - for stdin")
    .action(
      action(async (options: KeyOptions & { assertion: string; wait: string; requestId?: string }) => {
        const ctx = await cliContext();
        const { registerCredential } = await import('../../starter/index.js');
        const replyTimeoutMs = parseReplyWait(options.wait);
        const result = await withOptionNames(optionNames, async () => {
          const assertion = (await readAssertion('--assertion', options.assertion)) as RegisterFidoAssertion;
          return withStarter(ctx, (starter) =>
            registerCredential(
              { ...starter, replyTimeoutMs },
              { ...keyOf(options), assertion, requestId: options.requestId },
            ),
          );
        });
        printJson(result);
        if (!result.ok) throw new Error(`the bank refused the credential: ${result.reason}`);
      }),
    );

  keyed(enrollment.command('get'))
    .description('print where the enrollment stands')
    .action(
      action(async (options: KeyOptions) => {
        const ctx = await cliContext();
        const { getEnrollment } = await import('../../starter/index.js');
        printJson(
          await withOptionNames(optionNames, () =>
            withStarter(ctx, (starter) => getEnrollment(starter, keyOf(options))),
          ),
        );
      }),
    );

  keyed(enrollment.command('wait'))
    .description(
      "wait for the enrollment's outcome (authorized, rejected, revoked, expired or blocked) and print it; exit 1 unless authorized",
    )
    .action(
      action(async (options: KeyOptions) => {
        const ctx = await cliContext();
        const { waitForEnrollment } = await import('../../starter/index.js');
        const result = await withOptionNames(optionNames, () =>
          withStarter(ctx, (starter) => waitForEnrollment(starter, keyOf(options))),
        );
        printJson(result);
        if (result.outcome !== 'authorized')
          throw new Error(`the enrollment ended ${result.outcome}: ${result.reason}`);
      }),
    );
}

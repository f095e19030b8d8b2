import type { Command } from 'commander';
import type { ParticipantListing } from '../../bank/schemas/participant-listing.js';
import { bankReadContext } from '../bank.js';
import { cliContext, printJson } from '../context.js';
import { action } from '../errors.js';
import { withOptionNames } from '../option-names.js';
import { formatTable, type Column } from '../table.js';
import { printLines } from '../terminal-text.js';

const yesNo = (value: boolean | undefined) => (value === undefined ? '-' : value ? 'yes' : 'no');

const participantColumns: Column<ParticipantListing>[] = [
  { title: 'ID', value: (p) => p.id },
  { title: 'NAME', value: (p) => p.name },
  { title: 'ISPB', value: (p) => p.ispb },
  { title: 'AVAILABLE', value: (p) => yesNo(p.is_enrollment_available && !p.unavailable) },
  { title: 'ENROLLED', value: (p) => yesNo(p['enrolled?']) },
  { title: 'ENROLLMENT', value: (p) => (p.enrollment ? `${p.enrollment.id} ${p.enrollment.status}` : '-') },
];

interface DeviceOptions {
  fingerprint: string;
  taxNumber: string;
  name?: string;
  loadEnrollments?: boolean;
}

export function deviceCommands(program: Command): void {
  const device = program
    .command('device')
    .description("the customer's device at the bank (biometric step 2)");
  device
    .command('find-or-create')
    .description('find the device by fingerprint and tax number, or create it, and print it')
    .requiredOption('--fingerprint <fingerprint>', "the device's fingerprint")
    .requiredOption('--tax-number <digits>', "the customer's CPF (11 digits) or CNPJ (14 digits)")
    .option('--name <name>', "the customer's name")
    .option('--load-enrollments', "include the device's enrollments")
    .action(
      action(async (options: DeviceOptions) => {
        const { findOrCreateDevice } = await import('../../starter/index.js');
        const request = {
          fingerprint: options.fingerprint,
          counterparty_tax_number: options.taxNumber,
          ...(options.name === undefined ? {} : { counterparty_name: options.name }),
          ...(options.loadEnrollments ? { load_enrollments: true } : {}),
        };
        const found = await withOptionNames(
          {
            fingerprint: '--fingerprint',
            counterparty_tax_number: '--tax-number',
            counterparty_name: '--name',
          },
          async () => findOrCreateDevice(await bankReadContext(await cliContext()), request),
        );
        printJson(found);
      }),
    );

  program
    .command('participants')
    .description('list the participants a customer can enroll with (biometric step 3); enrolled ones first')
    .option('--device <id>', 'the device, to learn where it is enrolled')
    .option('--table', 'print a table for people instead of JSON')
    .action(
      action(async (options: { device?: string; table?: boolean }) => {
        const { listParticipants } = await import('../../starter/index.js');
        const participants = await withOptionNames({ deviceId: '--device' }, async () =>
          listParticipants(await bankReadContext(await cliContext()), { deviceId: options.device }),
        );
        if (options.table) printLines(formatTable(participants, participantColumns));
        else printJson(participants);
      }),
    );
}

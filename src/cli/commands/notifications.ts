import type { Command } from 'commander';
import type { DeliveryEntry, EndpointCounts, NotificationEvent } from '../../contract/notifications.js';
import { notifiedResources, type NotifiedResource } from '../../contract/notified-resources.js';
import { InvalidInputError } from '../../starter/errors.js';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { addTableOption, type OutputOptions } from '../output.js';
import { formatTable, type Column } from '../table.js';
import { printLines } from '../terminal-text.js';

const deliveryColumns: Column<DeliveryEntry>[] = [
  { title: 'SEQ', value: (row) => String(row.sequence), align: 'right' },
  { title: 'TYPE', value: (row) => row.type },
  { title: 'ENDPOINT', value: (row) => row.endpoint },
  { title: 'STATUS', value: (row) => row.status },
  { title: 'ATTEMPTS', value: (row) => String(row.attempts), align: 'right' },
  { title: 'ANSWER', value: (row) => row.answer ?? '-' },
  { title: 'AT', value: (row) => row.at ?? '-' },
  { title: 'EVENT', value: (row) => row.eventId },
];

const countColumns: Column<EndpointCounts>[] = [
  { title: 'ENDPOINT', value: (row) => row.endpoint },
  { title: 'DELIVERED', value: (row) => String(row.delivered), align: 'right' },
  { title: 'FAILED', value: (row) => String(row.failed), align: 'right' },
  { title: 'PENDING', value: (row) => String(row.pending), align: 'right' },
];

type ResourceOptions = Partial<Record<NotifiedResource, string>>;

/** The resource `--payment`, `--enrollment`, `--recurrence` or `--boleto` names: exactly one of them. */
function resourceOf(options: ResourceOptions): NotificationEvent['resource'] {
  const given = notifiedResources.filter((type) => options[type] !== undefined);
  if (given.length !== 1)
    throw new InvalidInputError(
      `--${given[0] ?? 'payment'}`,
      `give the bank id of exactly one resource: ${notifiedResources.map((type) => `--${type} <id>`).join(', ')}`,
    );
  const type = given[0]!;
  return { type, id: options[type]! };
}

export function notificationCommands(program: Command): void {
  const notifications = program
    .command('notifications')
    .description(
      "the merchant's notifications (docs/merchant-notifications.md): what was sent where, and sending one again",
    );

  addTableOption(
    notifications
      .command('list')
      .description(
        "print the notifications of a payment, enrollment, recurrence or boleto: each endpoint's counts, and the deliveries pending and last ended (status, attempts, the endpoint's answer)",
      )
      .option('--payment <id>', "the payment's bank id (uuid)")
      .option('--enrollment <id>', "the enrollment's bank id (uuid)")
      .option('--recurrence <id>', "the recurrence's bank id (uuid): its events and its attempts'")
      .option('--boleto <id>', "the boleto's bank id (uuid)"),
  ).action(
    action(async (options: OutputOptions & ResourceOptions) => {
      const resource = resourceOf(options);
      const { readNotificationLog } = await import('../../notifications/log.js');
      const log = await withStarter(await cliContext(), ({ client }) =>
        readNotificationLog(client, resource),
      );
      if (!options.table) return printJson(log);
      printLines(
        `${formatTable(log.deliveries, deliveryColumns)}\n\n${formatTable(log.endpoints, countColumns)}`,
      );
    }),
  );

  notifications
    .command('resend')
    .description(
      'deliver an event again, the same body under the same id, to every endpoint that had it or one',
    )
    .argument('<event-id>', 'the event id, e.g. payment:<payment id>:3 (from notifications list)')
    .option('--endpoint <url>', 'only to this endpoint (one the event went to)')
    .action(
      action(async (eventId: string, options: { endpoint?: string }) => {
        const { resendNotification } = await import('../../notifications/log.js');
        printJson(
          await withStarter(await cliContext(), ({ client, taskQueue }) =>
            resendNotification(client, taskQueue, eventId, options.endpoint),
          ),
        );
      }),
    );
}

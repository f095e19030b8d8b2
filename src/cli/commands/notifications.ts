import type { Command } from 'commander';
import type { DeliveryEntry, NotificationEvent } from '../../contract/notifications.js';
import { InvalidInputError } from '../../starter/errors.js';
import { cliContext, printJson, withStarter } from '../context.js';
import { action } from '../errors.js';
import { addTableOption, type OutputOptions } from '../output.js';
import { formatTable, type Column } from '../table.js';
import { printLines } from '../terminal-text.js';

type DeliveryRow = DeliveryEntry & { sequence: number; type: string };

const deliveryColumns: Column<DeliveryRow>[] = [
  { title: 'SEQ', value: (row) => String(row.sequence), align: 'right' },
  { title: 'TYPE', value: (row) => row.type },
  { title: 'ENDPOINT', value: (row) => row.endpoint },
  { title: 'STATUS', value: (row) => row.status },
  { title: 'ATTEMPTS', value: (row) => String(row.attempts), align: 'right' },
  { title: 'ANSWER', value: (row) => row.answer ?? '-' },
  { title: 'AT', value: (row) => row.at ?? '-' },
  { title: 'EVENT', value: (row) => row.eventId },
];

/** The resource `--payment` or `--enrollment` names: exactly one of them. */
function resourceOf(options: { payment?: string; enrollment?: string }): NotificationEvent['resource'] {
  if (options.payment !== undefined && options.enrollment === undefined)
    return { type: 'payment', id: options.payment };
  if (options.enrollment !== undefined && options.payment === undefined)
    return { type: 'enrollment', id: options.enrollment };
  throw new InvalidInputError('--payment', 'give the bank id of one payment, or --enrollment <id>, not both');
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
        "print the events of a payment or an enrollment and each delivery: status, attempts, the endpoint's last answer",
      )
      .option('--payment <id>', "the payment's bank id (uuid)")
      .option('--enrollment <id>', "the enrollment's bank id (uuid)"),
  ).action(
    action(async (options: OutputOptions & { payment?: string; enrollment?: string }) => {
      const resource = resourceOf(options);
      const { readNotificationLog } = await import('../../notifications/log.js');
      const log = await withStarter(await cliContext(), ({ client }) =>
        readNotificationLog(client, resource),
      );
      if (!options.table) return printJson(log);
      const events = new Map(log.events.map((event) => [event.id, event]));
      const rows = log.deliveries.map((entry) => ({
        ...entry,
        sequence: events.get(entry.eventId)?.sequence ?? 0,
        type: events.get(entry.eventId)?.type ?? '-',
      }));
      printLines(formatTable(rows, deliveryColumns));
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

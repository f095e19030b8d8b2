import type { Command } from 'commander';
import type { Card } from '../../bank/schemas/card.js';
import { currentCardInvoiceQuerySchema, type CardInvoice } from '../../bank/schemas/card-invoice.js';
import {
  cardEndToEndIdRule,
  cardEndToEndIdSchema,
  cardPurchaseQuerySchema,
  type CardPurchaseDocument,
  type CardPurchaseStage,
} from '../../bank/schemas/card-purchase.js';
import { formatReais } from '../../money.js';
import { cliBank } from '../bank.js';
import { action } from '../errors.js';
import {
  addFilters,
  checkedArgument,
  dateTimeValue,
  queryFromOptions,
  uuidValue,
  type Filter,
} from '../filters.js';
import { money } from '../money.js';
import { addTableOption, printRecord, type OutputOptions } from '../output.js';
import { formatTable, type Column } from '../table.js';

const cardColumns: Column<Card>[] = [
  { title: 'ID', value: (c) => c.id },
  { title: 'TYPE', value: (c) => c.type },
  { title: 'STATUS', value: (c) => c.status },
  { title: 'NAME', value: (c) => c.display_name },
  { title: 'NUMBER', value: (c) => c.masked_number },
  { title: 'BALANCE', value: (c) => formatReais(c.balance), align: 'right' },
];

const invoiceColumns: Column<CardInvoice>[] = [
  { title: 'ID', value: (i) => i.id },
  { title: 'STATUS', value: (i) => i.status },
  { title: 'FROM', value: (i) => i.from_datetime },
  { title: 'TO', value: (i) => i.to_datetime },
  { title: 'CONFIRMED', value: (i) => formatReais(i.purchase_balance), align: 'right' },
  { title: 'PENDING', value: (i) => formatReais(i.pending_confirmation_amount), align: 'right' },
  { title: 'BALANCE', value: (i) => formatReais(i.balance), align: 'right' },
];

const purchaseColumns: Column<CardPurchaseDocument>[] = [
  { title: 'END TO END ID', value: (p) => p.end_to_end_id },
  { title: 'STATUS', value: (p) => p.status },
  { title: 'TIMESTAMP', value: (p) => p.timestamp },
  { title: 'MERCHANT', value: (p) => p.merchant_name },
  { title: 'AMOUNT', value: (p) => money(p.amount), align: 'right' },
  { title: 'TAX', value: (p) => money(p.tax), align: 'right' },
  { title: 'CHARGED', value: (p) => money(p.issuer_amount), align: 'right' },
];

const purchaseStageColumns: Column<CardPurchaseStage>[] = [
  { title: 'STAGE', value: (s) => s.callback_type },
  { title: 'STATUS', value: (s) => s.status },
  { title: 'AT', value: (s) => s.inserted_at },
  { title: 'AMOUNT', value: (s) => money(s.callback_amount), align: 'right' },
];

const purchaseFilters: Filter[] = [
  {
    flags: '--timestamp <date-time>',
    parameter: 'timestamp',
    value: dateTimeValue,
    description: 'any instant of the UTC day the purchase was made; only that day is searched',
  },
];

const invoiceFilters: Filter[] = [
  {
    flags: '--entity <id>',
    parameter: 'entity_id',
    value: uuidValue,
    description: 'the entity whose open invoice to print (uuid)',
    required: true,
  },
];

export function cardCommands(program: Command): void {
  const card = program
    .command('card')
    .description('card data read straight from the bank: a card, a purchase, the current invoice');

  addTableOption(
    card.command('get').description('print one card').argument('<card-id>', 'the card (uuid)'),
  ).action(
    action(async (cardId: string, options: OutputOptions) => {
      const id = checkedArgument('<card-id>', uuidValue, cardId);
      const bank = await cliBank();
      printRecord(await bank.getCard(id), options, (found) => [formatTable([found], cardColumns)]);
    }),
  );

  addTableOption(
    addFilters(
      card
        .command('purchase')
        .description('print a card purchase, with the stages it went through, by its end-to-end id')
        .argument('<end-to-end-id>', "the purchase's end-to-end id"),
      purchaseFilters,
    ),
  ).action(
    action(async (endToEndId: string, options: OutputOptions & Record<string, unknown>) => {
      const id = checkedArgument(
        '<end-to-end-id>',
        { schema: cardEndToEndIdSchema, reason: cardEndToEndIdRule },
        endToEndId,
      );
      const query = queryFromOptions(cardPurchaseQuerySchema, purchaseFilters, options);
      const bank = await cliBank();
      printRecord(await bank.getCardPurchaseByEndToEndId(id, query), options, (found) => [
        formatTable([found], purchaseColumns),
        formatTable(found.stages, purchaseStageColumns),
      ]);
    }),
  );

  addTableOption(
    addFilters(
      card.command('invoice').description("print an entity's current (open) card invoice"),
      invoiceFilters,
    ),
  ).action(
    action(async (options: OutputOptions & Record<string, unknown>) => {
      const query = queryFromOptions(currentCardInvoiceQuerySchema, invoiceFilters, options);
      const bank = await cliBank();
      printRecord(await bank.getCurrentCardInvoice(query), options, (found) => [
        formatTable([found], invoiceColumns),
      ]);
    }),
  );
}

import type { CardInvoice } from '../../../src/bank/schemas/card-invoice.js';
import type { CardPurchaseDocument, CardPurchaseStage } from '../../../src/bank/schemas/card-purchase.js';
import type { Card } from '../../../src/bank/schemas/card.js';
import type { Money } from '../../../src/bank/schemas/common.js';
import {
  dayMs,
  earliest,
  endToEndId,
  instantBetween,
  minuteMs,
  personName,
  plusMs,
  sandboxBankIspb,
  weighted,
} from './generators.js';
import type { SeededRandom } from './random.js';
import type { SandboxWorld } from './world.js';

/** How many monthly invoices each entity has: the open one and the closed ones before it. */
const invoiceMonths = 4;

const merchants = [
  { name: 'Supermercado Bom Preço', mcc: '5411', category: 'groceries' },
  { name: 'Restaurante Sabor da Terra', mcc: '5812', category: 'restaurants' },
  { name: 'Posto Avenida', mcc: '5541', category: 'fuel' },
  { name: 'Táxi Express', mcc: '4121', category: 'transport' },
  { name: 'Eletrônicos Center', mcc: '5732', category: 'electronics' },
  { name: 'Cloud Hosting Inc', mcc: '5734', category: 'software', abroad: true },
  { name: 'Airline Tickets Co', mcc: '4511', category: 'travel', abroad: true },
] as const;

/** Brazilian real per US dollar, and the IOF tax on purchases abroad. */
const dollarRate = 5.2;
const iofRate = 0.0338;

const brl = (amount: number): Money => ({ amount, currency: 'BRL' });

export interface CardSeed {
  cards: Card[];
  invoices: CardInvoice[];
  purchases: CardPurchaseDocument[];
}

function monthStart(now: Date, monthsBack: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, 1));
}

const utcDay = (at: Date) => new Date(Math.floor(at.getTime() / dayMs) * dayMs);

type PurchaseStatus = 'confirmed' | 'pending' | 'reversed' | 'denied';

interface PurchaseContext {
  card: Card;
  walletId: string;
  merchantIds: Map<string, { merchant: string; category: string }>;
}

/** The steps a purchase went through to reach `status`, each a callback from the card network. */
function stepsTo(status: PurchaseStatus): [string, PurchaseStatus][] {
  if (status === 'denied') return [['authorization', 'denied']];
  if (status === 'pending') return [['authorization', 'pending']];
  const confirmed: [string, PurchaseStatus][] = [
    ['authorization', 'pending'],
    ['confirmation', 'confirmed'],
  ];
  return status === 'reversed' ? [...confirmed, ['reversal', 'reversed']] : confirmed;
}

function purchase(
  random: SeededRandom,
  context: PurchaseContext,
  at: Date,
  status: PurchaseStatus,
  now: Date,
): CardPurchaseDocument {
  const merchant = random.pick(merchants);
  const abroad = 'abroad' in merchant;
  const ids = context.merchantIds.get(merchant.name)!;
  const merchantAmount = abroad ? random.int(500, 50_000) : random.int(500, 150_000);
  const amount = abroad ? Math.round(merchantAmount * dollarRate) : merchantAmount;
  const tax = abroad ? Math.round(amount * iofRate) : 0;
  const id = random.uuid();
  const denied = status === 'denied';
  // What the document and each of its stages share.
  const fields = {
    id,
    wallet_id: context.walletId,
    entity_id: context.card.entity_id,
    holder_id: context.card.holder_id,
    card_id: context.card.id,
    company_id: context.card.company_id,
    category_id: ids.category,
    merchant_id: ids.merchant,
    org_id: context.card.org_id,
    receipt_url: `https://receipts.sandbox.bankflow.local/cards/purchases/${id}`,
    is_partially_allowed: random.chance(0.2),
    inserted_at: at.toISOString(),
    updated_at: at.toISOString(),
    timestamp: at.toISOString(),
    issuer_amount: brl(amount + tax),
    merchant_amount: { amount: merchantAmount, currency: abroad ? 'USD' : 'BRL' },
    tax: brl(tax),
    amount: brl(amount),
    category_type: merchant.category,
    category_code: merchant.mcc,
    method_code:
      context.card.type === 'virtual' || abroad ? 'ecommerce' : random.pick(['chip', 'contactless']),
    purpose: 'purchase',
    status,
    description: `Compra em ${merchant.name}`,
    merchant_country_code: abroad ? 'USA' : 'BRA',
    merchant_currency_symbol: abroad ? 'US$' : 'R$',
    zip_code: abroad ? '94105' : `0${random.digits(4)}-${random.digits(3)}`,
    merchant_name: merchant.name,
    error_code: denied ? 'INSUFFICIENT_LIMIT' : null,
    error_message: denied ? 'Limite insuficiente' : null,
    end_to_end_id: endToEndId(random, 'E', sandboxBankIspb, at),
    score: (random.int(0, 1000) / 1000).toFixed(3),
  };
  let stepAt = at;
  const stages: CardPurchaseStage[] = stepsTo(status).map(([callback, stageStatus], step) => {
    if (step > 0) stepAt = earliest(plusMs(stepAt, random.int(60, 48 * 60) * minuteMs), now);
    return {
      ...fields,
      id: random.uuid(),
      status: stageStatus,
      inserted_at: stepAt.toISOString(),
      updated_at: stepAt.toISOString(),
      purchase_document_id: id,
      callback_amount: fields.issuer_amount,
      callback_type: callback,
    };
  });
  return {
    ...fields,
    compress_timestamp: utcDay(at).toISOString(),
    updated_at: stepAt.toISOString(),
    stages,
  };
}

/** Sums the issuer amounts (what the holder is charged, tax included) of purchases in a status. */
function charged(purchases: readonly CardPurchaseDocument[], status: PurchaseStatus): number {
  return purchases
    .filter((item) => item.status === status)
    .reduce((sum, item) => sum + item.issuer_amount.amount, 0);
}

function inWindow(item: { timestamp: string }, from: Date, to: Date): boolean {
  const at = Date.parse(item.timestamp);
  return at >= from.getTime() && at < to.getTime();
}

/**
 * Each entity has a wallet, two holders, a virtual card, a physical card and a blocked card, purchases over
 * the last four months, and one invoice per month. Invoice and card balances are computed from the purchases:
 * confirmed ones make the purchase balance, pending ones the amount awaiting confirmation.
 */
export function seedCards(random: SeededRandom, world: SandboxWorld, now: Date): CardSeed {
  const merchantIds = new Map(
    merchants.map((m) => [m.name, { merchant: random.uuid(), category: random.uuid() }]),
  );
  const cards: Card[] = [];
  const invoices: CardInvoice[] = [];
  const purchases: CardPurchaseDocument[] = [];
  const openFrom = monthStart(now, 0);
  const openTo = monthStart(now, -1);
  for (const entityId of world.entityIds) {
    const walletId = random.uuid();
    const holders = [random.uuid(), random.uuid()] as const;
    const kinds = [
      { type: 'virtual', status: 'active', holder: holders[0] },
      { type: 'physical', status: 'active', holder: holders[0] },
      { type: 'physical', status: 'blocked', holder: holders[1] },
    ];
    const entityPurchases: CardPurchaseDocument[] = [];
    for (const kind of kinds) {
      // Each card and its purchases draw from their own stream: how many purchases are still pending depends
      // on now, the next card's id must not.
      const own = random.fork();
      const card: Card = {
        id: own.uuid(),
        company_id: world.companyId,
        entity_id: entityId,
        holder_id: kind.holder,
        org_id: world.orgId,
        balance: 0,
        display_name: `${personName(own)} (${kind.type === 'virtual' ? 'virtual' : 'físico'})`,
        masked_number: `5502 **** **** ${own.digits(4)}`,
        status: kind.status,
        type: kind.type,
      };
      const context = { card, walletId, merchantIds };
      for (let index = 0; index < 30; index++) {
        const at = instantBetween(own, monthStart(now, invoiceMonths - 1), plusMs(now, -minuteMs));
        const recent = now.getTime() - at.getTime() < 3 * dayMs;
        const status: PurchaseStatus =
          recent && own.chance(0.5)
            ? 'pending'
            : weighted(own, [
                ['confirmed', 85],
                ['reversed', 8],
                ['denied', 7],
              ]);
        entityPurchases.push(purchase(own, context, at, status, now));
      }
      card.balance = charged(
        entityPurchases.filter((item) => item.card_id === card.id && inWindow(item, openFrom, openTo)),
        'confirmed',
      );
      cards.push(card);
    }
    for (let back = invoiceMonths - 1; back >= 0; back--) {
      const from = monthStart(now, back);
      const to = monthStart(now, back - 1);
      const billed = entityPurchases.filter((item) => inWindow(item, from, to));
      const purchaseBalance = charged(billed, 'confirmed');
      const pending = charged(billed, 'pending');
      invoices.push({
        id: random.uuid(),
        company_id: world.companyId,
        entity_id: entityId,
        org_id: world.orgId,
        balance: purchaseBalance + pending,
        pending_confirmation_amount: pending,
        purchase_balance: purchaseBalance,
        status: back === 0 ? 'open' : 'closed',
        from_datetime: from.toISOString(),
        to_datetime: to.toISOString(),
      });
    }
    purchases.push(...entityPurchases);
  }
  return { cards, invoices, purchases };
}

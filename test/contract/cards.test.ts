import { BankNotFoundError, BankUnauthorizedError, BankValidationError } from '../../src/bank/errors.js';
import { cardInvoiceSchema } from '../../src/bank/schemas/card-invoice.js';
import {
  cardPurchaseDocumentSchema,
  type CardPurchaseDocument,
} from '../../src/bank/schemas/card-purchase.js';
import { cardSchema } from '../../src/bank/schemas/card.js';
import { failureOf, fixedNow, startDataSandbox, type DataSandbox } from '../helpers/data-sandbox.js';

const unknownId = '00000000-0000-4000-8000-000000000000';

function pointers(error: Error): string[] {
  expect(error).toBeInstanceOf(BankValidationError);
  return (error as BankValidationError).errors.map((item) => item.source?.pointer ?? '');
}

describe('card endpoints through BankClient and the sandbox bank', () => {
  let bank: DataSandbox;
  let purchases: CardPurchaseDocument[];

  /** What the holder is charged, summed straight from the seeded purchases. */
  function charged(selected: CardPurchaseDocument[], status: string): number {
    return selected.filter((p) => p.status === status).reduce((sum, p) => sum + p.issuer_amount.amount, 0);
  }

  const within = (p: CardPurchaseDocument, from: string, to: string) =>
    Date.parse(p.timestamp) >= Date.parse(from) && Date.parse(p.timestamp) < Date.parse(to);

  beforeAll(async () => {
    bank = await startDataSandbox();
    purchases = [...bank.sandbox.state.bankData.purchasesByEndToEndId.values()];
  });
  afterAll(async () => {
    await bank?.stop();
  });

  describe('GET /banking/cards/{id}', () => {
    it('answers the card, its balance being its confirmed spend in the open invoice', async () => {
      const seeded = [...bank.sandbox.state.bankData.cards.values()];
      expect(seeded).toHaveLength(3 * bank.sandbox.state.world.entityIds.length);
      for (const expected of seeded) {
        const card = await bank.bank.getCard(expected.id);
        expect(cardSchema.safeParse(card).success).toBe(true);
        expect(card).toEqual(expected);
        const invoice = bank.sandbox.state.bankData.invoices.find(
          (i) => i.entity_id === card.entity_id && i.status === 'open',
        )!;
        const own = purchases.filter(
          (p) => p.card_id === card.id && within(p, invoice.from_datetime, invoice.to_datetime),
        );
        expect(card.balance).toBe(charged(own, 'confirmed'));
      }
      expect(seeded.some((card) => card.balance > 0)).toBe(true);
    });

    it('answers 404 for an unknown card and 400 with a pointer for an id that is not a uuid', async () => {
      expect(await failureOf(bank.bank.getCard(unknownId))).toBeInstanceOf(BankNotFoundError);
      expect(pointers(await failureOf(bank.bank.getCard('card-1')))).toEqual(['/path/id']);
    });

    it('refuses wrong credentials with 401', async () => {
      const card = [...bank.sandbox.state.bankData.cards.keys()][0]!;
      expect(await failureOf(bank.badBank.getCard(card))).toBeInstanceOf(BankUnauthorizedError);
    });
  });

  describe('GET /banking/cards/purchases/e2e/{id}', () => {
    it('finds a purchase by its end-to-end id, with the stages it went through', async () => {
      const stagesByStatus: Record<string, string[]> = {
        confirmed: ['authorization', 'confirmation'],
        pending: ['authorization'],
        reversed: ['authorization', 'confirmation', 'reversal'],
        denied: ['authorization'],
      };
      for (const status of Object.keys(stagesByStatus)) {
        const seeded = purchases.find((p) => p.status === status)!;
        const purchase = await bank.bank.getCardPurchaseByEndToEndId(seeded.end_to_end_id);
        expect(cardPurchaseDocumentSchema.safeParse(purchase).success).toBe(true);
        expect(purchase).toEqual(seeded);
        expect(purchase.stages.map((stage) => stage.callback_type)).toEqual(stagesByStatus[status]);
        expect(purchase.stages.at(-1)!.status).toBe(status);
        for (const stage of purchase.stages) {
          expect(stage).toMatchObject({ purchase_document_id: purchase.id, card_id: purchase.card_id });
          expect(stage).not.toHaveProperty('compress_timestamp');
        }
      }
    });

    it('charges purchases abroad in reais plus IOF', () => {
      const abroad = purchases.find((p) => p.merchant_amount.currency === 'USD')!;
      expect(abroad.issuer_amount.amount).toBe(abroad.amount.amount + abroad.tax.amount);
      expect(abroad.tax.amount).toBeGreaterThan(0);
    });

    it('narrows the search to the UTC day of the timestamp given', async () => {
      const seeded = purchases[0]!;
      const sameDay = `${seeded.timestamp.slice(0, 10)}T23:59:59Z`;
      expect(
        (await bank.bank.getCardPurchaseByEndToEndId(seeded.end_to_end_id, { timestamp: sameDay })).id,
      ).toBe(seeded.id);
      const otherDay = new Date(Date.parse(seeded.timestamp) + 86_400_000).toISOString();
      const error = await failureOf(
        bank.bank.getCardPurchaseByEndToEndId(seeded.end_to_end_id, { timestamp: otherDay }),
      );
      expect(error).toBeInstanceOf(BankNotFoundError);
      expect(error.message).toContain(otherDay.slice(0, 10));
    });

    it('answers 404 for an unknown end-to-end id and 400 with pointers for malformed ones', async () => {
      expect(
        await failureOf(bank.bank.getCardPurchaseByEndToEndId('E00000000202501010000AAAAAAAAAAA')),
      ).toBeInstanceOf(BankNotFoundError);
      expect(await failureOf(bank.bank.getCardPurchaseByEndToEndId('E'.repeat(100)))).toBeInstanceOf(
        BankNotFoundError,
      );
      for (const malformed of ['not an id!', 'E'.repeat(101)]) {
        expect(pointers(await failureOf(bank.bank.getCardPurchaseByEndToEndId(malformed)))).toEqual([
          '/path/id',
        ]);
      }
      const error = await failureOf(
        bank.bank.getCardPurchaseByEndToEndId(purchases[0]!.end_to_end_id, { timestamp: 'today' }),
      );
      expect(pointers(error)).toEqual(['/query/timestamp']);
    });

    it('refuses wrong credentials with 401', async () => {
      expect(
        await failureOf(bank.badBank.getCardPurchaseByEndToEndId(purchases[0]!.end_to_end_id)),
      ).toBeInstanceOf(BankUnauthorizedError);
    });
  });

  describe('GET /banking/cards/invoices/current', () => {
    it('answers the open invoice of the entity, its balances summed from the purchases', async () => {
      for (const entityId of bank.sandbox.state.world.entityIds) {
        const invoice = await bank.bank.getCurrentCardInvoice({ entity_id: entityId });
        expect(cardInvoiceSchema.safeParse(invoice).success).toBe(true);
        expect(invoice).toMatchObject({
          entity_id: entityId,
          status: 'open',
          from_datetime: '2025-06-01T00:00:00.000Z',
          to_datetime: '2025-07-01T00:00:00.000Z',
        });
        expect(Date.parse(invoice.from_datetime)).toBeLessThanOrEqual(fixedNow.getTime());
        const billed = purchases.filter(
          (p) => p.entity_id === entityId && within(p, invoice.from_datetime, invoice.to_datetime),
        );
        expect(invoice.purchase_balance).toBe(charged(billed, 'confirmed'));
        expect(invoice.pending_confirmation_amount).toBe(charged(billed, 'pending'));
        expect(invoice.balance).toBe(invoice.purchase_balance + invoice.pending_confirmation_amount);
        expect(invoice.purchase_balance).toBeGreaterThan(0);
      }
    });

    it('keeps the closed invoices of earlier months consistent too', () => {
      const closed = bank.sandbox.state.bankData.invoices.filter((i) => i.status === 'closed');
      expect(closed.length).toBeGreaterThan(0);
      for (const invoice of closed) {
        const billed = purchases.filter(
          (p) => p.entity_id === invoice.entity_id && within(p, invoice.from_datetime, invoice.to_datetime),
        );
        expect(invoice.purchase_balance).toBe(charged(billed, 'confirmed'));
      }
    });

    it('requires entity_id, refuses a malformed one, and answers 404 for an unknown entity', async () => {
      const missing = await failureOf(bank.bank.getCurrentCardInvoice({} as { entity_id: string }));
      expect(pointers(missing)).toEqual(['/query/entity_id']);
      expect((missing as BankValidationError).errors[0]!.title).toBe('REQUIRED_PARAMETER');
      expect(pointers(await failureOf(bank.bank.getCurrentCardInvoice({ entity_id: 'e-1' })))).toEqual([
        '/query/entity_id',
      ]);
      expect(await failureOf(bank.bank.getCurrentCardInvoice({ entity_id: unknownId }))).toBeInstanceOf(
        BankNotFoundError,
      );
    });

    it('refuses wrong credentials with 401', async () => {
      const entity_id = bank.sandbox.state.world.entityIds[0]!;
      expect(await failureOf(bank.badBank.getCurrentCardInvoice({ entity_id }))).toBeInstanceOf(
        BankUnauthorizedError,
      );
    });
  });
});

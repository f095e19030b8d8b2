import type { BankClient } from '../bank/client.js';
import type { CardPurchaseQuery } from '../bank/schemas/card-purchase.js';
import type { CurrentCardInvoiceQuery } from '../bank/schemas/card-invoice.js';
import { bankActivity } from './failures.js';

export function createCardActivities(bank: BankClient) {
  return {
    getCard: bankActivity((cardId: string) => bank.getCard(cardId)),
    getCardPurchaseByEndToEndId: bankActivity((endToEndId: string, query: CardPurchaseQuery = {}) =>
      bank.getCardPurchaseByEndToEndId(endToEndId, query),
    ),
    getCurrentCardInvoice: bankActivity((query: CurrentCardInvoiceQuery) =>
      bank.getCurrentCardInvoice(query),
    ),
  };
}

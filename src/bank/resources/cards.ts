import { endpoint, optionalQuery, query } from '../resource.js';
import { cardInvoiceSchema, type CurrentCardInvoiceQuery } from '../schemas/card-invoice.js';
import { cardPurchaseDocumentSchema, type CardPurchaseQuery } from '../schemas/card-purchase.js';
import { cardSchema } from '../schemas/card.js';

/** Cards, their purchases and invoices; the CLI reads them, no workflow does. */
export const cards = {
  /** GET /banking/cards/{id} */
  getCard: endpoint({
    method: 'GET',
    route: '/banking/cards/{card_id}',
    record: cardSchema,
    answers: 'record',
    activity: false,
  }),

  /** GET /banking/cards/purchases/e2e/{id} */
  getCardPurchaseByEndToEndId: endpoint({
    method: 'GET',
    route: '/banking/cards/purchases/e2e/{end_to_end_id}',
    request: optionalQuery<CardPurchaseQuery>(),
    record: cardPurchaseDocumentSchema,
    answers: 'record',
    activity: false,
  }),

  /** GET /banking/cards/invoices/current */
  getCurrentCardInvoice: endpoint({
    method: 'GET',
    route: '/banking/cards/invoices/current',
    request: query<CurrentCardInvoiceQuery>(),
    record: cardInvoiceSchema,
    answers: 'record',
    activity: false,
  }),
};

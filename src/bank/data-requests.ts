import type { z } from 'zod';
import type { BankRequest, QueryValue } from './http.js';
import { assertOneCursor, type ListEndpoint, type PageCursors } from './pagination.js';
import { cardInvoiceSchema, type CurrentCardInvoiceQuery } from './schemas/card-invoice.js';
import { cardPurchaseDocumentSchema, type CardPurchaseQuery } from './schemas/card-purchase.js';
import { cardSchema } from './schemas/card.js';
import { collectionAttemptSchema, type CollectionAttemptListQuery } from './schemas/collection-attempt.js';
import { list, single } from './schemas/common.js';
import { metricsSchema, type MetricsQuery } from './schemas/metrics.js';
import { recurrenceSchema, type GenerateRecurrenceRequest } from './schemas/recurrence.js';
import { receivableRefundSchema, type RefundListQuery } from './schemas/refund.js';
import { transferDocumentSchema, type TransferListQuery } from './schemas/transfer.js';

const segment = (value: string) => encodeURIComponent(value);

const attemptsPath = '/banking/cashin/pix/recurrences/collections/attempts';

/** The paginated data endpoints, named for errors raised while paging. */
export const dataListEndpoints = {
  transfers: { operation: 'listTransfers', path: '/banking/cashout/transfer' },
  collectionAttempts: { operation: 'listCollectionAttempts', path: attemptsPath },
  receivableRefunds: { operation: 'listReceivableRefunds', path: '/banking/cashin/refunds' },
} satisfies Record<string, ListEndpoint>;

export const dataPaths = {
  recurrences: '/banking/cashin/pix/recurrences',
  collectionAttempt: (id: string) => `${attemptsPath}/${segment(id)}`,
  card: (id: string) => `/banking/cards/${segment(id)}`,
  cardPurchaseByEndToEndId: (endToEndId: string) => `/banking/cards/purchases/e2e/${segment(endToEndId)}`,
  currentCardInvoice: '/banking/cards/invoices/current',
  metrics: '/banking/metric',
};

const bankRequest = <T extends z.ZodType>(request: BankRequest<T>) => request;

/** A GET of a paginated list; a query carrying both cursors is refused here, before anything is sent. */
function listRequest<T extends z.ZodType, Q extends PageCursors & Record<string, QueryValue>>(
  endpoint: ListEndpoint,
  query: Q,
  record: T,
) {
  assertOneCursor(endpoint, query);
  return bankRequest({ ...endpoint, method: 'GET', query: { ...query }, schema: list(record) });
}

/**
 * How each data call (transfers, recurrences and their attempts, refunds, cards, metrics) is sent; BankClient's
 * methods are thin typed entry points over these. Queries go out as given: the bank validates them.
 */
export const dataRequests = {
  listTransfers: (query: TransferListQuery) =>
    listRequest(dataListEndpoints.transfers, query, transferDocumentSchema),

  generateRecurrence: (body: GenerateRecurrenceRequest) =>
    bankRequest({
      operation: 'generateRecurrence',
      method: 'POST',
      path: dataPaths.recurrences,
      body,
      schema: single(recurrenceSchema),
    }),

  listCollectionAttempts: (query: CollectionAttemptListQuery) =>
    listRequest(dataListEndpoints.collectionAttempts, query, collectionAttemptSchema),

  getCollectionAttempt: (attemptId: string) =>
    bankRequest({
      operation: 'getCollectionAttempt',
      method: 'GET',
      path: dataPaths.collectionAttempt(attemptId),
      route: `${attemptsPath}/{attempt_id}`,
      schema: single(collectionAttemptSchema),
    }),

  listReceivableRefunds: (query: RefundListQuery) =>
    listRequest(dataListEndpoints.receivableRefunds, query, receivableRefundSchema),

  getCard: (cardId: string) =>
    bankRequest({
      operation: 'getCard',
      method: 'GET',
      path: dataPaths.card(cardId),
      route: '/banking/cards/{card_id}',
      schema: single(cardSchema),
    }),

  getCardPurchaseByEndToEndId: (endToEndId: string, query: CardPurchaseQuery) =>
    bankRequest({
      operation: 'getCardPurchaseByEndToEndId',
      method: 'GET',
      path: dataPaths.cardPurchaseByEndToEndId(endToEndId),
      route: '/banking/cards/purchases/e2e/{end_to_end_id}',
      query: { ...query },
      schema: single(cardPurchaseDocumentSchema),
    }),

  getCurrentCardInvoice: (query: CurrentCardInvoiceQuery) =>
    bankRequest({
      operation: 'getCurrentCardInvoice',
      method: 'GET',
      path: dataPaths.currentCardInvoice,
      query: { ...query },
      schema: single(cardInvoiceSchema),
    }),

  getMetrics: (query: MetricsQuery) =>
    bankRequest({
      operation: 'getMetrics',
      method: 'GET',
      path: dataPaths.metrics,
      query: { ...query },
      schema: single(metricsSchema),
    }),
};

import { z } from 'zod';
import { cardInvoiceSchema, currentCardInvoiceQuerySchema } from '../../bank/schemas/card-invoice.js';
import {
  cardEndToEndIdSchema,
  cardPurchaseDocumentSchema,
  cardPurchaseQuerySchema,
} from '../../bank/schemas/card-purchase.js';
import { cardSchema } from '../../bank/schemas/card.js';
import {
  collectionAttemptListQuerySchema,
  collectionAttemptSchema,
} from '../../bank/schemas/collection-attempt.js';
import { pageMetadataSchema, uuid } from '../../bank/schemas/common.js';
import { metricsQuerySchema, metricsSchema } from '../../bank/schemas/metrics.js';
import { receivableRefundSchema, refundListQuerySchema } from '../../bank/schemas/refund.js';
import { transferDocumentSchema, transferListQuerySchema } from '../../bank/schemas/transfer.js';
import { route } from '../route.js';

/** One page of a bank list, as the bank pages it: follow `metadata.after` with `?after=` while `has_next`. */
const page = (record: z.ZodType) => z.object({ data: z.array(record), metadata: pageMetadataSchema });

const listDescription =
  "One page, oldest first, as the bank pages it: ask again with `after` set to the answer's `metadata.after` " +
  'while `metadata.has_next`.';

/**
 * The bank reads a merchant makes directly (what `bankflow cards|refunds|transfers|attempts|metrics` read).
 */
export const bankReadRoutes = [
  route({
    method: 'GET',
    path: '/v1/refunds',
    operationId: 'listReceivableRefunds',
    tag: 'Bank reads',
    summary: 'Refunds of received payments',
    description: listDescription,
    query: refundListQuerySchema,
    answer: page(receivableRefundSchema),
    call: async (ctx, { query }) => ({ body: await ctx.bank.bank.listReceivableRefunds(query) }),
  }),
  route({
    method: 'GET',
    path: '/v1/transfers',
    operationId: 'listTransfers',
    tag: 'Bank reads',
    summary: 'Cash-out transfers in a window',
    description: listDescription,
    query: transferListQuerySchema,
    answer: page(transferDocumentSchema),
    call: async (ctx, { query }) => ({ body: await ctx.bank.bank.listTransfers(query) }),
  }),
  route({
    method: 'GET',
    path: '/v1/collection-attempts',
    operationId: 'listCollectionAttempts',
    tag: 'Bank reads',
    summary: "Collection attempts of the merchant's recurrences",
    description: listDescription,
    query: collectionAttemptListQuerySchema,
    answer: page(collectionAttemptSchema),
    call: async (ctx, { query }) => ({ body: await ctx.bank.bank.listCollectionAttempts(query) }),
  }),
  route({
    method: 'GET',
    path: '/v1/collection-attempts/{attemptId}',
    operationId: 'getCollectionAttempt',
    tag: 'Bank reads',
    summary: 'One collection attempt, with its stages',
    params: z.object({ attemptId: uuid }),
    answer: collectionAttemptSchema,
    call: async (ctx, { params }) => ({ body: await ctx.bank.bank.getCollectionAttempt(params.attemptId) }),
  }),
  route({
    method: 'GET',
    path: '/v1/cards/{cardId}',
    operationId: 'getCard',
    tag: 'Bank reads',
    summary: 'A card',
    params: z.object({ cardId: uuid }),
    answer: cardSchema,
    call: async (ctx, { params }) => ({ body: await ctx.bank.bank.getCard(params.cardId) }),
  }),
  route({
    method: 'GET',
    path: '/v1/card-purchases/{endToEndId}',
    operationId: 'getCardPurchase',
    tag: 'Bank reads',
    summary: 'A card purchase by its end-to-end id',
    params: z.object({ endToEndId: cardEndToEndIdSchema }),
    query: cardPurchaseQuerySchema,
    answer: cardPurchaseDocumentSchema,
    call: async (ctx, { params, query }) => ({
      body: await ctx.bank.bank.getCardPurchaseByEndToEndId(params.endToEndId, query),
    }),
  }),
  route({
    method: 'GET',
    path: '/v1/card-invoices/current',
    operationId: 'getCurrentCardInvoice',
    tag: 'Bank reads',
    summary: "An entity's current card invoice",
    query: currentCardInvoiceQuerySchema,
    answer: cardInvoiceSchema,
    call: async (ctx, { query }) => ({ body: await ctx.bank.bank.getCurrentCardInvoice(query) }),
  }),
  route({
    method: 'GET',
    path: '/v1/metrics',
    operationId: 'getMetrics',
    tag: 'Bank reads',
    summary: "A bank account's settled and failed documents in a window",
    query: metricsQuerySchema,
    answer: metricsSchema,
    call: async (ctx, { query }) => ({ body: await ctx.bank.bank.getMetrics(query) }),
  }),
];

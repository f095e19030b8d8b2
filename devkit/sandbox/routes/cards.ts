import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { currentCardInvoiceQuerySchema } from '../../../src/bank/schemas/card-invoice.js';
import { cardEndToEndIdSchema, cardPurchaseQuerySchema } from '../../../src/bank/schemas/card-purchase.js';
import { uuid } from '../../../src/bank/schemas/common.js';
import { sendError } from '../errors.js';
import { parseParameters } from '../query.js';
import type { SandboxState } from '../state.js';

const cardParamsSchema = z.strictObject({ id: uuid });
const purchaseParamsSchema = z.strictObject({ id: cardEndToEndIdSchema });

const utcDay = (timestamp: string) => timestamp.slice(0, 10);

/** Card, card purchase by end-to-end id, current invoice; all answer errors in the errors-list form. */
export function cardRoutes(app: FastifyInstance, state: SandboxState): void {
  app.get('/banking/cards/:id', { config: { errorShape: 'list' } }, async (request, reply) => {
    const params = parseParameters(reply, 'path', cardParamsSchema, request.params);
    if (!params) return reply;
    const card = state.bankData.cards.get(params.id);
    if (!card) return sendError(reply, 404, 'NOT_FOUND', `card ${params.id} not found`, '/path/id');
    return { data: card };
  });

  app.get('/banking/cards/purchases/e2e/:id', { config: { errorShape: 'list' } }, async (request, reply) => {
    const params = parseParameters(reply, 'path', purchaseParamsSchema, request.params);
    if (!params) return reply;
    const query = parseParameters(reply, 'query', cardPurchaseQuerySchema, request.query);
    if (!query) return reply;
    const purchase = state.bankData.purchasesByEndToEndId.get(params.id);
    const day = query.timestamp === undefined ? undefined : utcDay(new Date(query.timestamp).toISOString());
    if (!purchase || (day !== undefined && day !== utcDay(purchase.compress_timestamp))) {
      const on = day === undefined ? '' : ` on ${day}`;
      return sendError(reply, 404, 'NOT_FOUND', `card purchase ${params.id} not found${on}`, '/path/id');
    }
    return { data: purchase };
  });

  app.get('/banking/cards/invoices/current', { config: { errorShape: 'list' } }, async (request, reply) => {
    const query = parseParameters(reply, 'query', currentCardInvoiceQuerySchema, request.query);
    if (!query) return reply;
    const invoice = state.bankData.invoices.find(
      (candidate) => candidate.entity_id === query.entity_id && candidate.status === 'open',
    );
    if (!invoice) {
      return sendError(
        reply,
        404,
        'NOT_FOUND',
        `no open card invoice for entity ${query.entity_id}`,
        '/query/entity_id',
      );
    }
    return { data: invoice };
  });
}

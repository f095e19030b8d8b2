import type { FastifyInstance } from 'fastify';
import {
  refundListQuerySchema,
  type ReceivableRefund,
  type RefundListQuery,
} from '../../bank/schemas/refund.js';
import { keyOf, paginate, readPageRequest } from '../pagination.js';
import { parseParameters, withinWindow } from '../query.js';
import type { SandboxState } from '../state.js';

function matches(refund: ReceivableRefund, query: RefundListQuery): boolean {
  return (
    withinWindow(refund.timestamp, query.from_datetime, query.to_datetime) &&
    (query.virtual_account_id === undefined || refund.virtual_account_id === query.virtual_account_id) &&
    (query.reconciliation_id === undefined || refund.reconciliation_id === query.reconciliation_id)
  );
}

/** GET /banking/cashin/refunds: single-error body. */
export function refundRoutes(app: FastifyInstance, state: SandboxState): void {
  app.get('/banking/cashin/refunds', { config: { errorShape: 'single' } }, async (request, reply) => {
    const query = parseParameters(reply, 'query', refundListQuerySchema, request.query);
    if (!query) return reply;
    const page = readPageRequest(reply, 'refunds', query);
    if (!page) return reply;
    const matching = state.bankData.refunds.filter((refund) => matches(refund, query));
    return paginate('refunds', matching, (refund) => keyOf(refund.timestamp, refund.id), page);
  });
}

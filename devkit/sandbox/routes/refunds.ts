import type { FastifyInstance } from 'fastify';
import {
  refundListQuerySchema,
  type ReceivableRefund,
  type RefundListQuery,
} from '../../../src/bank/schemas/refund.js';
import { withinWindow } from '../query.js';
import type { SandboxState } from '../state.js';
import { addDatedListRoute } from './dated-list.js';

function matches(refund: ReceivableRefund, query: RefundListQuery): boolean {
  return (
    withinWindow(refund.timestamp, query.from_datetime, query.to_datetime) &&
    (query.virtual_account_id === undefined || refund.virtual_account_id === query.virtual_account_id) &&
    (query.reconciliation_id === undefined || refund.reconciliation_id === query.reconciliation_id)
  );
}

/** GET /banking/cashin/refunds: single-error body. */
export function refundRoutes(app: FastifyInstance, state: SandboxState): void {
  addDatedListRoute(app, {
    path: '/banking/cashin/refunds',
    scope: 'refunds',
    query: refundListQuerySchema,
    matching: (query) => state.bankData.refunds.filter((refund) => matches(refund, query)),
  });
}

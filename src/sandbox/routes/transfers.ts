import type { FastifyInstance } from 'fastify';
import {
  transferListQuerySchema,
  type TransferDocument,
  type TransferListQuery,
} from '../../bank/schemas/transfer.js';
import { keyOf, paginate, readPageRequest } from '../pagination.js';
import { parseParameters, withinWindow } from '../query.js';
import type { SandboxState } from '../state.js';

function matches(transfer: TransferDocument, query: TransferListQuery): boolean {
  return (
    withinWindow(transfer.timestamp, query.from_datetime, query.to_datetime) &&
    (query.from_virtual_account_id === undefined ||
      transfer.from_virtual_account_id === query.from_virtual_account_id) &&
    (query.to_virtual_account_id === undefined ||
      transfer.to_virtual_account_id === query.to_virtual_account_id) &&
    (query.external_id === undefined || transfer.external_id === query.external_id) &&
    (query.reconciliation_id === undefined || transfer.reconciliation_id === query.reconciliation_id) &&
    (query.status === undefined || transfer.status === query.status)
  );
}

/** GET /banking/cashout/transfer: single-error body; from_datetime and to_datetime are required. */
export function transferRoutes(app: FastifyInstance, state: SandboxState): void {
  app.get('/banking/cashout/transfer', { config: { errorShape: 'single' } }, async (request, reply) => {
    const query = parseParameters(reply, 'query', transferListQuerySchema, request.query);
    if (!query) return reply;
    const page = readPageRequest(reply, 'transfers', query);
    if (!page) return reply;
    const matching = state.bankData.transfers.filter((transfer) => matches(transfer, query));
    return paginate('transfers', matching, (transfer) => keyOf(transfer.timestamp, transfer.id), page);
  });
}

import type { FastifyInstance } from 'fastify';
import {
  transferListQuerySchema,
  type SandboxTransferDocument,
  type TransferListQuery,
} from '../../../src/bank/schemas/transfer.js';
import { withinWindow } from '../query.js';
import type { SandboxState } from '../state.js';
import { addDatedListRoute } from './dated-list.js';

function matches(transfer: SandboxTransferDocument, query: TransferListQuery): boolean {
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
  addDatedListRoute(app, {
    path: '/banking/cashout/transfer',
    scope: 'transfers',
    query: transferListQuerySchema,
    matching: (query) => state.bankData.transfers.filter((transfer) => matches(transfer, query)),
  });
}

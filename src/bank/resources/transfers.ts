import { endpoint, query } from '../resource.js';
import { transferDocumentSchema, type TransferListQuery } from '../schemas/transfer.js';

/** Cash-out transfers; the transfer report pages them (src/reports/list-reports.ts). */
export const transfers = {
  /** GET /banking/cashout/transfer — one page; `listAllTransfers` walks them. */
  listTransfers: endpoint({
    method: 'GET',
    route: '/banking/cashout/transfer',
    request: query<TransferListQuery>(),
    record: transferDocumentSchema,
    answers: 'pages',
    activity: false,
  }),
};

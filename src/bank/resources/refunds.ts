import { endpoint, optionalQuery } from '../resource.js';
import { receivableRefundSchema, type RefundListQuery } from '../schemas/refund.js';

/** Refunds of received payments; the refund report pages them (src/reports/list-reports.ts). */
export const refunds = {
  /** GET /banking/cashin/refunds — one page; `listAllReceivableRefunds` walks them. */
  listReceivableRefunds: endpoint({
    method: 'GET',
    route: '/banking/cashin/refunds',
    request: optionalQuery<RefundListQuery>(),
    record: receivableRefundSchema,
    answers: 'pages',
    activity: false,
  }),
};

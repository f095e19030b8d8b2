import type { BankClient } from '../bank/client.js';
import type { RefundListQuery } from '../bank/schemas/refund.js';
import { bankActivity } from './failures.js';

/** One page per call, like every list activity. */
export function createRefundActivities(bank: BankClient) {
  return {
    listReceivableRefunds: bankActivity((query: RefundListQuery) => bank.listReceivableRefunds(query)),
  };
}

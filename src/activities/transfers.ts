import type { BankClient } from '../bank/client.js';
import type { TransferListQuery } from '../bank/schemas/transfer.js';
import { bankActivity } from './failures.js';

/** One page per call: a long list is walked by the workflow, cursor by cursor, so a crash resumes mid-way. */
export function createTransferActivities(bank: BankClient) {
  return {
    listTransfers: bankActivity((query: TransferListQuery) => bank.listTransfers(query)),
  };
}

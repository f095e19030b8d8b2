import type { ReceivableRefund } from '../bank/schemas/refund.js';
import type { TransferDocument } from '../bank/schemas/transfer.js';
import type { CsvValue } from './csv.js';
import { centsToReais } from './totals.js';

export interface Column<T> {
  header: string;
  value: (record: T) => CsvValue;
}

const amountColumns = <T extends { amount: { amount: number; currency: string } }>(): Column<T>[] => [
  { header: 'amount_cents', value: (record) => record.amount.amount },
  { header: 'amount_reais', value: (record) => centsToReais(record.amount.amount) },
  { header: 'currency', value: (record) => record.amount.currency },
];

/** The report's CSV columns for a receivable refund; the JSON report keeps the whole record. */
export const refundColumns: Column<ReceivableRefund>[] = [
  { header: 'id', value: (r) => r.id },
  { header: 'status', value: (r) => r.status },
  ...amountColumns<ReceivableRefund>(),
  { header: 'timestamp', value: (r) => r.timestamp },
  { header: 'transaction_date', value: (r) => r.transaction_date },
  { header: 'external_id', value: (r) => r.external_id },
  { header: 'end_to_end_id', value: (r) => r.end_to_end_id },
  { header: 'reconciliation_id', value: (r) => r.reconciliation_id },
  { header: 'collecting_document_id', value: (r) => r.collecting_document_id },
  { header: 'virtual_account_id', value: (r) => r.virtual_account_id },
  { header: 'bank_account_id', value: (r) => r.bank_account_id },
  { header: 'entity_id', value: (r) => r.entity_id },
  { header: 'origin_type', value: (r) => r.origin_type },
  { header: 'description', value: (r) => r.description },
];

/** The report's CSV columns for a cash-out transfer document. */
export const transferColumns: Column<TransferDocument>[] = [
  { header: 'id', value: (t) => t.id },
  { header: 'status', value: (t) => t.status },
  ...amountColumns<TransferDocument>(),
  { header: 'timestamp', value: (t) => t.timestamp },
  { header: 'transaction_date', value: (t) => t.transaction_date },
  { header: 'external_id', value: (t) => t.external_id },
  { header: 'end_to_end_id', value: (t) => t.end_to_end_id },
  { header: 'reconciliation_id', value: (t) => t.reconciliation_id },
  { header: 'from_virtual_account_id', value: (t) => t.from_virtual_account_id },
  { header: 'to_virtual_account_id', value: (t) => t.to_virtual_account_id },
  { header: 'bank_account_id', value: (t) => t.bank_account_id },
  { header: 'entity_id', value: (t) => t.entity_id },
  { header: 'description', value: (t) => t.description },
];

import type { ReceivableRefund } from '../../../src/bank/schemas/refund.js';
import type { Stage } from '../../../src/bank/schemas/stage.js';
import type { SeededCollectingDocument } from './collecting-documents.js';
import {
  earliest,
  endToEndId,
  minuteMs,
  plusMs,
  sandboxBankIspb,
  serial,
  shuffled,
  weighted,
} from './generators.js';
import type { SeededRandom } from './random.js';

type RefundStatus = 'created' | 'processing' | 'settled' | 'failed';

const failures = [
  ['ACCOUNT_CLOSED', 'Conta do pagador encerrada'],
  ['AMOUNT_EXCEEDS_ORIGINAL', 'Valor da devolução excede o saldo devolvível'],
] as const;

const descriptions = ['Devolução de cobrança', 'Estorno a pedido do cliente', 'Pagamento em duplicidade'];

/** The path a refund takes to reach `status`: created, processing, then settled or failed. */
function pathTo(status: RefundStatus): RefundStatus[] {
  if (status === 'created') return ['created'];
  if (status === 'processing') return ['created', 'processing'];
  return ['created', 'processing', status];
}

/**
 * Refunds of settled Pix cash-ins (never more than one per cash-in, never more than it received), requested
 * within ten days of the cash-in, each with the stages it went through.
 */
export function seedRefunds(
  random: SeededRandom,
  documents: readonly SeededCollectingDocument[],
  now: Date,
  count: number,
): ReceivableRefund[] {
  const refundable = shuffled(
    random,
    documents.filter((document) => document.status === 'settled'),
  ).slice(0, count);
  return refundable.map((document, index) => {
    const status = weighted<RefundStatus>(random, [
      ['settled', 70],
      ['failed', 12],
      ['processing', 10],
      ['created', 8],
    ]);
    const requested = earliest(
      plusMs(new Date(document.timestamp), random.int(1, 10 * 24 * 60) * minuteMs),
      plusMs(now, -10 * minuteMs),
    );
    const failure = random.pick(failures);
    const stages: Stage[] = pathTo(status).map((stageStatus, step) => ({
      id: random.uuid(),
      status: stageStatus,
      error_code: stageStatus === 'failed' ? failure[0] : null,
      error_message: stageStatus === 'failed' ? failure[1] : null,
      inserted_at: plusMs(requested, step * random.int(1, 3) * minuteMs).toISOString(),
    }));
    const received = document.amount.amount;
    const id = random.uuid();
    return {
      id,
      amount: { amount: random.chance(0.6) ? received : random.int(100, received - 1), currency: 'BRL' },
      bank_account_id: document.bank_account_id,
      collecting_document_id: document.id,
      entity_id: document.entity_id,
      virtual_account_id: document.virtual_account_id,
      origin_id: random.uuid(),
      origin_type: random.chance(0.1) ? 'med' : 'merchant_request',
      reconciliation_id: random.chance(0.65) ? random.uuid() : null,
      description: random.pick(descriptions),
      external_id: serial('refund', index),
      end_to_end_id: endToEndId(random, 'D', sandboxBankIspb, requested),
      receipt_url: `https://receipts.sandbox.bankflow.local/refunds/${id}`,
      status,
      timestamp: requested.toISOString(),
      transaction_date: status === 'settled' ? (stages[stages.length - 1]?.inserted_at ?? null) : null,
      stages,
    };
  });
}

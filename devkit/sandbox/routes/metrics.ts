import type { FastifyInstance } from 'fastify';
import { metricsQuerySchema, type Metrics, type MetricsQuery } from '../../../src/bank/schemas/metrics.js';
import type { BankData } from '../bank-data.js';
import { sendError } from '../errors.js';
import { parseParameters, withinWindow } from '../query.js';
import type { SandboxState } from '../state.js';

interface Counted {
  status: string;
  amount: { amount: number };
  bank_account_id: string;
  timestamp: string;
}

/** Cents settled and failed among the documents of one bank account within the window. */
function totals(documents: readonly Counted[], query: MetricsQuery): { settled: number; failed: number } {
  const result = { settled: 0, failed: 0 };
  for (const document of documents) {
    if (document.bank_account_id !== query.bank_account_id) continue;
    if (!withinWindow(document.timestamp, query.from_datetime, query.to_datetime)) continue;
    if (document.status === 'settled') result.settled += document.amount.amount;
    if (document.status === 'failed') result.failed += document.amount.amount;
  }
  return result;
}

/** Collecting documents are the Pix cash-ins, payment documents the cash-out transfers. */
export function computeMetrics(data: BankData, query: MetricsQuery): Metrics {
  return {
    collecting_document: totals(data.collectingDocuments, query),
    payment_document: totals(data.transfers, query),
  };
}

/** GET /banking/metric: single-error body; an unknown bank account is a 404. */
export function metricsRoutes(app: FastifyInstance, state: SandboxState): void {
  app.get('/banking/metric', { config: { errorShape: 'single' } }, async (request, reply) => {
    const query = parseParameters(reply, 'query', metricsQuerySchema, request.query);
    if (!query) return reply;
    if (!state.world.bankAccountIds.includes(query.bank_account_id)) {
      return sendError(reply, 404, 'NOT_FOUND', `bank account ${query.bank_account_id} not found`);
    }
    return { data: computeMetrics(state.bankData, query) };
  });
}

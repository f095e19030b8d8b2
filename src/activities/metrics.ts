import type { BankClient } from '../bank/client.js';
import type { MetricsQuery } from '../bank/schemas/metrics.js';
import { bankActivity } from './failures.js';

export function createMetricsActivities(bank: BankClient) {
  return {
    getMetrics: bankActivity((query: MetricsQuery) => bank.getMetrics(query)),
  };
}

import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * The receiver's Prometheus metrics, on a registry of its own so several receivers can live in one process.
 */
export function createReceiverMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'bankflow_receiver_' });
  return {
    registry,
    received: new Counter({
      name: 'bankflow_webhooks_received_total',
      help: 'Webhook requests by outcome (accepted, unmatched, rejected status code)',
      labelNames: ['outcome', 'category'] as const,
      registers: [registry],
    }),
    ackSeconds: new Histogram({
      name: 'bankflow_webhook_ack_seconds',
      help: 'Time from request to answer',
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
  };
}

export type ReceiverMetrics = ReturnType<typeof createReceiverMetrics>;

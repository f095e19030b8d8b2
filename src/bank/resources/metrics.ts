import { endpoint, query } from '../resource.js';
import { metricsSchema, type MetricsQuery } from '../schemas/metrics.js';

/** A bank account's metrics; the metrics snapshot job reads them. */
export const metrics = {
  /** GET /banking/metric */
  getMetrics: endpoint({
    method: 'GET',
    route: '/banking/metric',
    request: query<MetricsQuery>(),
    record: metricsSchema,
    answers: 'record',
    activity: true,
  }),
};

import {
  ContinueAsNew,
  isCancellation,
  metricMeter,
  workflowInfo,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';

/** The journeys whose ends operators count, by workflow type. */
const journeyKinds: Record<string, string> = {
  biometricPaymentWorkflow: 'payment',
  enrollmentWorkflow: 'enrollment',
};

/**
 * Payments and enrollments by outcome (`settled`, `expired`, `revoked`, ...; `failed` or `cancelled` when the
 * run itself ended so), as `bankflow_journeys_total` on the worker's Temporal SDK metrics endpoint. Metrics
 * from workflow code are not emitted while a history replays, so each end is counted once.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        const kind = journeyKinds[workflowInfo().workflowType];
        if (!kind) return next(input);
        const journeys = metricMeter.createCounter(
          'bankflow_journeys_total',
          '1',
          'Payments and enrollments ended, by outcome',
        );
        try {
          const result = await next(input);
          const outcome = (result as { outcome?: unknown } | undefined)?.outcome;
          journeys.add(1, { kind, outcome: typeof outcome === 'string' ? outcome : 'unknown' });
          return result;
        } catch (error) {
          if (!(error instanceof ContinueAsNew))
            journeys.add(1, { kind, outcome: isCancellation(error) ? 'cancelled' : 'failed' });
          throw error;
        }
      },
    },
  ],
});

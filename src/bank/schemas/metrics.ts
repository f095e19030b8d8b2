import { z } from 'zod';
import { dateTime, uuid } from './common.js';
import { windowInOrder } from './query.js';

const settledAndFailed = z.looseObject({ failed: z.number().int(), settled: z.number().int() });

/**
 * Totals in minor units (cents) over the window, not counts (docs/decisions.md): collecting documents are Pix
 * cash-ins, payment documents are cash-out transfers, of one bank account.
 */
export const metricsSchema = z.looseObject({
  collecting_document: settledAndFailed,
  payment_document: settledAndFailed,
});
export type Metrics = z.infer<typeof metricsSchema>;

/** GET /banking/metric query; all three are required and their names are bankflow's (docs/decisions.md). */
export const metricsQuerySchema = z
  .strictObject({
    bank_account_id: uuid,
    from_datetime: dateTime,
    to_datetime: dateTime,
  })
  .superRefine(windowInOrder);
export type MetricsQuery = z.infer<typeof metricsQuerySchema>;

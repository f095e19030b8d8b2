import type { BankClient } from '../bank/client.js';
import { createBiometricsActivities } from './biometrics.js';
import { createBoletoActivities } from './boletos.js';
import { createCardActivities } from './cards.js';
import { createMetricsActivities } from './metrics.js';
import { createRecurrenceActivities } from './recurrences.js';
import { createRefundActivities } from './refunds.js';
import { createTransferActivities } from './transfers.js';

export interface ActivityDeps {
  bank: BankClient;
}

/** Every activity the worker registers, bound to its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createBoletoActivities(deps.bank),
    ...createTransferActivities(deps.bank),
    ...createRecurrenceActivities(deps.bank),
    ...createRefundActivities(deps.bank),
    ...createCardActivities(deps.bank),
    ...createMetricsActivities(deps.bank),
    ...createBiometricsActivities(deps.bank),
  };
}

export type Activities = ReturnType<typeof createActivities>;

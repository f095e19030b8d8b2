import type { BankClient } from '../bank/client.js';
import { createBoletoActivities } from './boletos.js';

export interface ActivityDeps {
  bank: BankClient;
}

/** Every activity the worker registers, bound to its dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createBoletoActivities(deps.bank),
  };
}

export type Activities = ReturnType<typeof createActivities>;

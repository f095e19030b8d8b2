import type { BankClient } from '../bank/client.js';
import { bankEndpoints, type BankEndpoints } from '../bank/resources/index.js';
import { bankActivity } from './failures.js';

/** The endpoints workflows call (`activity: true` in their resource). */
export type BankCallName = {
  [Name in keyof BankEndpoints]: BankEndpoints[Name]['activity'] extends true ? Name : never;
}[keyof BankEndpoints];

export type BankCallActivities = Pick<BankClient, BankCallName>;

/**
 * An activity per endpoint that workflows call, named as the endpoint and its BankClient method: one bank
 * call each, whose failures reach Temporal typed (bankActivity). Devices, participants, cards and the report
 * lists are read outside workflows, or paged by activities of their own, so they have none.
 */
export function createBankCallActivities(bank: BankClient): BankCallActivities {
  const activities: Record<string, unknown> = {};
  for (const [name, definition] of Object.entries(bankEndpoints)) {
    if (!definition.activity) continue;
    const method = bank[name as BankCallName] as (...args: unknown[]) => Promise<unknown>;
    activities[name] = bankActivity((...args: unknown[]) => method.apply(bank, args));
  }
  return activities as BankCallActivities;
}

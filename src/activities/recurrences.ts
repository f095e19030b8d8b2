import type { BankClient } from '../bank/client.js';
import type { GenerateRecurrenceRequest } from '../bank/schemas/recurrence.js';
import { bankActivity } from './failures.js';

/** Creating a recurrence and reading one collection attempt; syncAttemptsPages pages the attempts list. */
export function createRecurrenceActivities(bank: BankClient) {
  return {
    generateRecurrence: bankActivity((request: GenerateRecurrenceRequest) =>
      bank.generateRecurrence(request),
    ),
    getCollectionAttempt: bankActivity((attemptId: string) => bank.getCollectionAttempt(attemptId)),
  };
}
